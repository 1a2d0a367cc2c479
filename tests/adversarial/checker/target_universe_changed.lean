-- family: target
-- attack: the answer generalises over a universe
-- refused: command-not-allowed @ 6
-- checker: statement-differs
-- facts: {"candidate": {"levels": ["u"]}}
universe u in
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := h

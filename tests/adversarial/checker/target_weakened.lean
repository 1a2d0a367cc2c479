-- family: target
-- attack: the answer weakens the statement under the same name
-- checker: statement-differs
-- facts: {"candidate": {"type_equal": false}}
theorem main (a b : ℝ) (h : a ≤ b) (h' : b ≤ a) : a ≤ b := h

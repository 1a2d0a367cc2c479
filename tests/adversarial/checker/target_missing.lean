-- family: target
-- attack: the answer proves another name
-- checker: target-missing
-- facts: {"candidate": null}
theorem main' (a b : ℝ) (h : a ≤ b) : a ≤ b := h

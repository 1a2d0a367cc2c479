-- clean: native_decide and sorry named in a comment only
-- facts: {}
-- `native_decide` and `sorry` would be refused; this proof uses neither
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

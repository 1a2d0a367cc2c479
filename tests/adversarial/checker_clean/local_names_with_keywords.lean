-- clean: local names that contain the words
-- facts: {}
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  have instance_bound : a ≤ b := h
  have axiom_free := instance_bound
  exact axiom_free

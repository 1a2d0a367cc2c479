-- expect: command-not-allowed @ 2
set_option autoImplicit true
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

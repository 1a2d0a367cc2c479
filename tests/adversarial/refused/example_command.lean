-- expect: command-not-allowed @ 2
example : True := trivial
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

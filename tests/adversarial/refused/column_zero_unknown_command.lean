-- expect: command-not-allowed @ 4
theorem helper : True := trivial

foo_command bar
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

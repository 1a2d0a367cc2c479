-- expect: command-not-allowed @ 2
partial theorem loop : True := loop
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

-- expect: command-not-allowed @ 2
axiom cheat : False
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

-- expect: command-not-allowed @ 2
infixl:65 " + " => Nat.sub
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

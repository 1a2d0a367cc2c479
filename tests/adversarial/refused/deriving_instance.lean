-- expect: command-not-allowed @ 2
deriving instance Repr for Nat
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

-- expect: command-not-allowed @ 2
unsafe def f : ℕ := 1
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

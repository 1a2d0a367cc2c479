-- expect: command-not-allowed @ 2
def paperMean (a b : ℝ) : ℝ := a
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

-- expect: command-not-allowed @ 2
open scoped Classical
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

-- expect: command-not-allowed @ 2
abbrev Real.le (a b : ℝ) : Prop := True
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

-- expect: command-not-allowed @ 2
notation:50 a " ≤ " b => True
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

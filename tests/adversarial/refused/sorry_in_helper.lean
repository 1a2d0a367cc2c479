-- expect: sorry @ 2
theorem helper : 1 = 2 := sorry
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

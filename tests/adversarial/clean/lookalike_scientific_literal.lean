theorem main : (1.5e3 : ℝ) = 1500 ∧ (2.5 : ℝ) = 5 / 2 := by
  norm_num

theorem main : (0x1F : ℕ) + 0b1 + 0o7 + 1_000 = 1_039 := by
  norm_num

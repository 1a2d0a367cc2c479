theorem main (n : ℕ) : n + 0 = n := by
  -- termination_by and decreasing_by are not needed
  simp

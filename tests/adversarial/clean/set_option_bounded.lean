set_option maxHeartbeats 100000 in
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

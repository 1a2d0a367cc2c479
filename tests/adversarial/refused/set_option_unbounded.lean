-- expect: option-not-allowed @ 2
set_option maxHeartbeats 0 in
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

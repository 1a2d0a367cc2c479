-- expect: debug-option @ 2
set_option debug.skipKernelTC true in
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

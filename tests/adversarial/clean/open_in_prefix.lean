open Real in
theorem main (x : ℝ) (hx : 0 < x) : 0 < x := by
  exact hx

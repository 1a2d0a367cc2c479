theorem main (x : ℝ) (hx : 0 ≤ x) : 0 ≤ x := by
  open Real in
  exact hx

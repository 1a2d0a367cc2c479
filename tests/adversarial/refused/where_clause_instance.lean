-- expect: attribute-not-allowed @ 5
theorem main (a b : ℝ) : a ≤ b := by
  exact go
where
  @[instance 10000] go : a ≤ b := sorry

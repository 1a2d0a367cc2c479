-- expect: attribute-not-allowed @ 2
@[norm_num Nat.succ _] theorem t : True := trivial
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

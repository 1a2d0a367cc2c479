-- expect: implemented-by @ 2
@[«implemented_by» id] theorem t : True := trivial
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

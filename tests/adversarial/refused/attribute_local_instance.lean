-- expect: command-not-allowed @ 3
theorem helper : True := trivial
attribute [local instance 10000] Classical.propDecidable
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

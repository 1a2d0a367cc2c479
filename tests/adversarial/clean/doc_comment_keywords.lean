/-- This lemma is not an `instance`; no `@[instance]` or `notation` here. -/
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

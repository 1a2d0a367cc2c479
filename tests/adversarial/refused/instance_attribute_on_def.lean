-- expect: attribute-not-allowed @ 2
@[instance 10000] def myLE : LE ℝ := ⟨fun _ _ => True⟩
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

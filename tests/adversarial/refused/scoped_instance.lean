-- expect: command-not-allowed @ 2
scoped instance : LE ℝ := ⟨fun _ _ => True⟩
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

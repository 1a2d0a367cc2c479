-- expect: command-not-allowed @ 2
instance (priority := 10000) myLE : LE ℝ := ⟨fun _ _ => True⟩
theorem main (a b : ℝ) : a ≤ b := by
  exact True.intro

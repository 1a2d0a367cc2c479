-- expect: command-not-allowed @ 4
theorem helper : True := trivial

instance (priority := 10000) : LE ℝ := ⟨fun _ _ => True⟩
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

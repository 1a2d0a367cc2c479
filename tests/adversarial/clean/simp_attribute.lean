@[simp] theorem my_simp (n : ℕ) : n + 0 = n := rfl

theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

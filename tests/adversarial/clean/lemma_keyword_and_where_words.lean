lemma sum_le (a b : ℕ) : a ≤ a + b := Nat.le_add_right a b

theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

theorem instance_free (a : ℝ) : a ≤ a := le_refl a

theorem notation_ok (macro_count : ℕ) : macro_count = macro_count := rfl
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

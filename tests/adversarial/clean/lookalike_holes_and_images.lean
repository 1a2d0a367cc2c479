theorem main (f : ℕ → ℕ) (s : Set ℕ) : f '' s ⊆ f '' s ∧ f ⁻¹' s ⊆ f ⁻¹' s := by
  refine ⟨?_, ?_⟩ <;> exact le_rfl

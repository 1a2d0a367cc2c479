theorem main (s : Set ℕ) (x : ℝ) (hx : x ≠ 0) : sᶜᶜ = s ∧ x⁻¹ * x = 1 :=
  ⟨compl_compl s, inv_mul_cancel₀ hx⟩

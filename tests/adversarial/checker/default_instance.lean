-- family: poisoned-context
-- attack: a default instance changes how numerals elaborate
-- refused: attribute-not-allowed @ 6
-- checker: added-instance
-- facts: {"+entries": [{"module": "PROOF", "extension": "Lean.Meta.defaultInstanceExtension", "count": 1}]}
@[default_instance] instance instOfNatNat' : OfNat ℕ 0 := ⟨1⟩
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

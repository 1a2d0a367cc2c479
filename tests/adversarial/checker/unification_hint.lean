-- family: poisoned-context
-- attack: a unification hint steers elaboration
-- refused: command-not-allowed @ 6
-- checker: extension-entry
-- facts: {"+entries": [{"module": "PROOF", "extension": "Lean.Meta.unificationHintExtension", "count": 1}]}
unif_hint (a : ℝ) where
  a =?= a
  ⊢ a =?= a
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

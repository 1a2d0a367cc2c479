-- family: poisoned-context
-- attack: deriving instance
-- refused: command-not-allowed @ 6
-- checker: added-instance
-- facts: {"+entries": [{"module": "PROOF", "extension": "Lean.Meta.instanceExtension", "count": 1}]}
deriving instance Repr for Nat
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

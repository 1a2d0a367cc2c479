-- family: poisoned-context
-- attack: a coercion registered for later statements
-- refused: attribute-not-allowed @ 6
-- checker: extension-entry added-definition
-- facts: {"+entries": [{"module": "PROOF", "extension": "Lean.Meta.coeDeclAttr", "count": 1}], "+added": [{"name": "toReal", "module": "PROOF", "kind": "def", "unsafe": false, "partial": false}]}
@[coe] def toReal (n : ℕ) : ℝ := 0
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

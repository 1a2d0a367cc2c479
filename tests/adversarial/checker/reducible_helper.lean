-- family: poisoned-context
-- attack: an unapproved reducible helper definition
-- refused: attribute-not-allowed @ 6
-- checker: added-definition
-- facts: {"+added": [{"name": "helper", "module": "PROOF", "kind": "def", "unsafe": false, "partial": false}]}
@[reducible] def helper : ℕ := 0
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

-- family: poisoned-context
-- attack: a new structure in a proof
-- refused: command-not-allowed @ 6
-- checker: added-inductive
-- facts: {"+added": [{"name": "Box", "module": "PROOF", "kind": "inductive", "unsafe": false, "partial": false}]}
structure Box where
  x : ℕ
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

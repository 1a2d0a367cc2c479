-- family: evidence-rewriting
-- attack: an opaque constant
-- refused: command-not-allowed @ 6
-- checker: added-opaque
-- facts: {"+added": [{"name": "hidden", "module": "PROOF", "kind": "opaque", "unsafe": false, "partial": false}]}
opaque hidden : ℕ
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

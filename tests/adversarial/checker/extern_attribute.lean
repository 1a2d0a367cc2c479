-- family: evidence-rewriting
-- attack: an extern implementation
-- refused: attribute-not-allowed @ 6
-- checker: implementation-attribute added-opaque
-- facts: {"+entries": [{"module": "PROOF", "extension": "Lean.externAttr", "count": 1}], "+added": [{"name": "g", "module": "PROOF", "kind": "opaque", "unsafe": false, "partial": false}]}
@[extern "g_c"] opaque g : ℕ → ℕ
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

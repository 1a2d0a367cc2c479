-- clean: a @[simp] helper lemma
-- facts: {"+added": [{"name": "le_self'", "module": "PROOF", "kind": "theorem", "unsafe": false, "partial": false}], "+entries": [{"module": "PROOF", "extension": "Lean.Meta.simpExtension", "count": 1}]}
@[simp] theorem le_self' (a : ℝ) : a ≤ a := le_refl a
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

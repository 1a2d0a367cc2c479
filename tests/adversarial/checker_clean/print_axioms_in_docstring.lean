-- clean: `#print axioms` and `addDecl` in a doc comment
-- facts: {"+entries": [{"module": "PROOF", "extension": "Lean.docStringExt", "count": 1}]}
/-- The proof never uses `#print axioms`, `Lean.addDecl` or `elab_rules`. -/
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

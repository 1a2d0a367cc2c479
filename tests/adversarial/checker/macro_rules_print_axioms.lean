-- family: evidence-rewriting
-- attack: a macro turns `#print axioms` into a comment-like no-op
-- refused: command-not-allowed @ 6
-- checker: syntax-registration axiom-not-allowed
-- facts: {"+axioms": ["sorryAx"], "+entries": [{"module": "PROOF", "extension": "Lean.Elab.macroAttribute", "count": 1}]}
macro_rules | `(#print axioms $_) => `(#check 0)
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  sorry

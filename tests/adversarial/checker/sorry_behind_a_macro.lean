-- family: evidence-rewriting
-- attack: sorry hidden behind a tactic macro
-- refused: command-not-allowed @ 6
-- checker: axiom-not-allowed syntax-registration
-- facts: {"axioms": ["sorryAx"], "+entries": [{"module": "PROOF", "extension": "Lean.Elab.macroAttribute", "count": 1}]}
macro "done'" : tactic => `(tactic| sorry)
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  done'

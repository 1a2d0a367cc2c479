-- family: evidence-rewriting
-- attack: a tactic elaborator that closes any goal
-- refused: command-not-allowed @ 6
-- checker: syntax-registration
-- facts: {"+entries": [{"module": "PROOF", "extension": "Lean.Elab.Tactic.tacticElabAttribute", "count": 1}]}
elab "close_it" : tactic => Lean.Elab.Tactic.evalTactic (← `(tactic| assumption))
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  close_it

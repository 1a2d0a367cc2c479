-- family: evidence-rewriting
-- attack: a command elaborator that adds the target with sorryAx
-- refused: command-not-allowed @ 6
-- checker: axiom-not-allowed syntax-registration
-- facts: {"axioms": ["sorryAx"], "+entries": [{"module": "PROOF", "extension": "Lean.Elab.Command.commandElabAttribute", "count": 1}]}
elab "prove_it" : command => Lean.Elab.Command.elabCommand (← `(theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := sorry))
prove_it

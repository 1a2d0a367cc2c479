-- family: evidence-rewriting
-- attack: new syntax with macro rules
-- refused: command-not-allowed @ 6
-- checker: syntax-registration
-- facts: {"+entries": [{"module": "PROOF", "extension": "Lean.Parser.parserExtension", "count": 1}, {"module": "PROOF", "extension": "Lean.Elab.macroAttribute", "count": 1}]}
syntax "trivially" : tactic
macro_rules | `(tactic| trivially) => `(tactic| assumption)
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  trivially

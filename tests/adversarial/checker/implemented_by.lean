-- family: evidence-rewriting
-- attack: implemented_by swaps a definition's code
-- refused: command-not-allowed @ 6
-- checker: implementation-attribute added-definition
-- facts: {"+entries": [{"module": "PROOF", "extension": "Lean.Compiler.implementedByAttr", "count": 1}], "+added": [{"name": "f", "module": "PROOF", "kind": "def", "unsafe": false, "partial": false}]}
def fImpl (n : ℕ) : Bool := true
@[implemented_by fImpl] def f (n : ℕ) : Bool := false
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

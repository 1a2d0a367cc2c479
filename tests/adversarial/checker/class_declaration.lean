-- family: poisoned-context
-- attack: a new class and instance
-- refused: command-not-allowed @ 6
-- checker: added-inductive added-instance
-- facts: {"+entries": [{"module": "PROOF", "extension": "Lean.classExtension", "count": 1}], "+added": [{"name": "Fake", "module": "PROOF", "kind": "inductive", "unsafe": false, "partial": false}]}
class Fake (α : Type) : Prop where
  ok : True
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

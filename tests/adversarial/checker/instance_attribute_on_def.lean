-- family: poisoned-context
-- attack: attribute [instance] on a helper definition
-- refused: command-not-allowed @ 6
-- checker: added-instance added-definition
-- facts: {"+entries": [{"module": "PROOF", "extension": "Lean.Meta.instanceExtension", "count": 1}], "+added": [{"name": "badLe", "module": "PROOF", "kind": "def", "unsafe": false, "partial": false}]}
def badLe : LE ℝ := ⟨fun _ _ => True⟩
attribute [instance 10000] badLe
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

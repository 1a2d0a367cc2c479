-- family: poisoned-context
-- attack: an instance making ≤ on ℝ always true, for a later statement
-- refused: command-not-allowed @ 6
-- checker: added-instance statement-differs
-- facts: {"+entries": [{"module": "PROOF", "extension": "Lean.Meta.instanceExtension", "count": 1}], "candidate": {"type_equal": false}, "+constants": [{"name": "instBad", "module": "PROOF"}]}
instance (priority := 10000) instBad : LE ℝ := ⟨fun _ _ => True⟩
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  trivial

-- family: poisoned-context
-- attack: an export alias makes a name resolve elsewhere
-- refused: command-not-allowed @ 6
-- checker: extension-entry
-- facts: {"+entries": [{"module": "PROOF", "extension": "Lean.aliasExtension", "count": 1}]}
export Real (pi)
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

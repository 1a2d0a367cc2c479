-- family: evidence-rewriting
-- attack: an unexpander hides a term in printed output
-- refused: attribute-not-allowed @ 6
-- checker: syntax-registration
-- facts: {"+entries": [{"module": "PROOF", "extension": "Lean.PrettyPrinter.Delaborator.appUnexpanderAttribute", "count": 1}]}
@[app_unexpander LE.le] def hideLe : Lean.PrettyPrinter.Unexpander := fun _ => throw ()
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

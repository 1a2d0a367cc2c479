-- family: evidence-rewriting
-- attack: a simproc: meta code run by simp
-- refused: command-not-allowed @ 6
-- checker: syntax-registration
-- facts: {"+entries": [{"module": "PROOF", "extension": "Lean.Meta.Simp.simprocDeclExt", "count": 1}]}
simproc myProc (_ + _) := fun _ => return .continue
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

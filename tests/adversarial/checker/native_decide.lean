-- family: evidence-rewriting
-- attack: native_decide: compiled code as a proof
-- refused: native-decide @ 7
-- checker: axiom-not-allowed
-- facts: {"axioms": ["propext", "Lean.ofReduceBool"]}
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  have : (2 : ℕ) + 2 = 4 := by native_decide
  exact h

-- family: evidence-rewriting
-- attack: decide (config := { native := (true) }) escaped the old token scan
-- refused: native-decide @ 7
-- checker: axiom-not-allowed
-- facts: {"axioms": ["Lean.ofReduceBool"]}
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  have : (2 : ℕ) + 2 = 4 := by decide (config := { native := (true) })
  exact h

-- family: evidence-rewriting
-- attack: a csimp lemma replaces code the compiler runs
-- refused: attribute-not-allowed @ 6
-- checker: implementation-attribute
-- facts: {"+entries": [{"module": "PROOF", "extension": "Lean.Compiler.CSimp.ext", "count": 1}]}
@[csimp] theorem swap_eq : @id = @id := rfl
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

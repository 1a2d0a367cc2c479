-- family: evidence-rewriting
-- attack: a string that imitates `#print axioms`' answer
-- refused: command-not-allowed @ 4
#print "'main' depends on axioms: [propext, Classical.choice, Quot.sound]"
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

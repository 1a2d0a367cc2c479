-- family: effects
-- attack: #exit: everything after it is unchecked
-- refused: command-not-allowed @ 4
#exit
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

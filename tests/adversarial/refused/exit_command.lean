-- expect: command-not-allowed @ 4
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h
#exit
theorem other : False := sorry

-- expect: command-not-allowed @ 2
syntax "done!" : tactic
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

-- expect: command-not-allowed @ 2
elab "close" : tactic => pure ()
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

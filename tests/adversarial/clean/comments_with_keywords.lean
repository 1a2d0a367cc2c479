-- instance, attribute, notation, macro, #eval, sorry, axiom
/- by_elab run_tac s!"{x}" `debug.skipKernelTC -/
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

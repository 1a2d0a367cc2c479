-- expect: run-command @ 3
theorem main : True := by
  run_tac Lean.Elab.Tactic.evalTactic (← `(tactic| trivial))

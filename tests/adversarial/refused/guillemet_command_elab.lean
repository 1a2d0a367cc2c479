-- expect: elab @ 2
@[«command_elab» Lean.Parser.Command.theorem] theorem t : True := trivial
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

-- expect: glued-token @ 3
theorem main (n : Nat) : Nat :=
  1.5e-3run_cmd Lean.Elab.Command.liftTermElabM (pure ())

-- expect: glued-token @ 3
theorem main (n : Nat) : Nat :=
  0o17elab_rules : term | `(foo) => pure (Lean.mkConst `True)

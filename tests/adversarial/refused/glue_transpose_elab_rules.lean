-- expect: glued-token @ 2
theorem main (M : Nat) : Nat := Mᵀelab_rules : tactic | `(tactic| simp) => pure ()

-- expect: glued-token @ 2
theorem main (n : Nat) : Nat := 1_000axiom cheat (p : Prop) : p

-- expect: glued-token @ 2
theorem main (n : Nat) : Nat := 2e3axiom cheat (p : Prop) : p

-- expect: glued-token @ 2
theorem main (n : Nat) : Nat := 0b1axiom cheat (p : Prop) : p

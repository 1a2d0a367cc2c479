-- expect: glued-token @ 2
theorem main (c : Char) : Char := 'c'axiom cheat (p : Prop) : p

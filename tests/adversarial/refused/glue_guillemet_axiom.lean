-- expect: glued-token @ 2
theorem main (p : Prop) (h : p) : p := «h»axiom cheat (q : Prop) : q

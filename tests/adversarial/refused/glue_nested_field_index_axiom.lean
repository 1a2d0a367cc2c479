-- expect: glued-token @ 2
theorem main (h : And (And True True) True) : True := h.1.2axiom cheat (p : Prop) : p

-- expect: glued-token @ 3
theorem main (p : Prop) (h : p) : p := h
#exitnow
theorem unchecked : False := sorry

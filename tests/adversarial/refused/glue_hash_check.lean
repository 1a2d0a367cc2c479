-- expect: glued-token @ 3
theorem main (p : Prop) (h : p) : p := h
#checkmain

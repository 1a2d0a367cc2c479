-- expect: glued-token @ 2
theorem main (n : Nat) : Nat := 0set_option debug.skipKernelTC true
theorem main2 (p : Prop) (h : p) : p := h

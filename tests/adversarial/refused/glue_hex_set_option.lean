-- expect: glued-token @ 2
theorem main (n : Nat) : Nat := 0x1Fset_option debug.skipKernelTC true in
theorem main2 (p : Prop) (h : p) : p := h

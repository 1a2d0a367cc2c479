-- expect: glued-token @ 3
theorem helper (p : Prop) (h : p) : p := h
theorem main (n : Nat) : Nat := 0instance : Inhabited Nat := ⟨n⟩

-- expect: glued-token @ 2
theorem main (n : Nat) : Nat := 0xFF_FFinstance : Inhabited Nat := ⟨n⟩

-- expect: glued-token @ 2
theorem main (n : Nat) : Nat := 0ᵒinstance : Inhabited Nat := ⟨n⟩

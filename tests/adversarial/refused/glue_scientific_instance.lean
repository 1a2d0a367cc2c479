-- expect: glued-token @ 2
theorem main (n : Nat) : Nat := 1.5instance : Inhabited Nat := ⟨n⟩

-- expect: glued-token @ 2
theorem main (n : Nat) : Nat := 0O7instance : Inhabited Nat := ⟨n⟩

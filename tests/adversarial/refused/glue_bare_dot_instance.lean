-- expect: glued-token @ 2
theorem main (n : Nat) : Nat := 2.instance : Inhabited Nat := ⟨n⟩

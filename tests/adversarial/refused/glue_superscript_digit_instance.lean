-- expect: glued-token @ 2
theorem main (x : Nat) : Nat := x²instance : Inhabited Nat := ⟨0⟩

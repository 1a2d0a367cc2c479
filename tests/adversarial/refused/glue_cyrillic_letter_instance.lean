-- expect: glued-token @ 2
theorem main (x : Nat) : Nat := xжinstance : Inhabited Nat := ⟨0⟩

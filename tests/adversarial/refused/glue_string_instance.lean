-- expect: glued-token @ 2
theorem main (s : String) : String := "s"instance : Inhabited Nat := ⟨0⟩

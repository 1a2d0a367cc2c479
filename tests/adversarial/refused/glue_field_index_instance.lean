-- expect: glued-token @ 2
theorem main (h : And True True) : True := h.1instance : Inhabited Nat := ⟨0⟩

-- expect: glued-token @ 2
theorem main (h : And True True) : True := h.«1»instance : Inhabited Nat := ⟨0⟩

theorem main (p q r : Prop) (h : (p ∧ q) ∧ r) : q ∧ r :=
  ⟨h.1.2, h.2⟩

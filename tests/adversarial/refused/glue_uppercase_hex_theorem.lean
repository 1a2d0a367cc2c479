-- expect: glued-token @ 2
theorem main (n : Nat) : Nat := 0XABtheorem bad (p : Prop) : p := sorry

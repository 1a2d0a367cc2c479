-- expect: glued-token @ 3
-- Lean reads the hexadecimal `0x1Fa` and then `xiom`: refused, whatever it hides
theorem main (n : Nat) : Nat := 0x1Faxiom

-- expect: glued-token @ 3
-- with Mathlib `ᶜ` is the complement token: Lean reads `s`, `ᶜ`, then the command `axiom`
theorem main (s : Set Nat) : Set Nat := sᶜaxiom cheat (p : Prop) : p

-- expect: command-not-allowed @ 4
theorem helper : True := trivial

register_option foo : Bool := { defValue := true }
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

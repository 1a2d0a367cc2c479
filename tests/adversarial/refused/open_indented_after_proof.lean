-- expect: command-not-allowed @ 4
theorem helper : True := by
  trivial
  open Foo
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

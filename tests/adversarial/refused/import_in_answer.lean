-- expect: command-not-allowed @ 2
import Lean
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

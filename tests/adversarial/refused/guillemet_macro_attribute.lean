-- expect: macro @ 2
@[«macro» Lean.Parser.Tactic.simp] theorem t : True := trivial
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

-- family: effects
-- attack: an import in the answer
-- refused: command-not-allowed @ 4
import Lean
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

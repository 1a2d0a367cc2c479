-- expect: command-not-allowed @ 2
section
variable (x : ℕ)
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h
end

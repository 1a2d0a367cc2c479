-- expect: command-not-allowed @ 2
local notation "ℝ" => ℕ
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

-- expect: command-not-allowed @ 2
namespace Real
theorem le_refl' (a : ℝ) : a ≤ a := le_refl a
end Real
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

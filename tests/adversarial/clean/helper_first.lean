theorem helper (a b : ℝ) (h : a ≤ b) : a ≤ b := h

theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact helper a b h

-- expect: command-not-allowed @ 2
initialize IO.println "loaded"
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

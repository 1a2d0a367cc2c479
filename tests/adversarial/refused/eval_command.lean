-- expect: command-not-allowed @ 2
#eval IO.println "hi"
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

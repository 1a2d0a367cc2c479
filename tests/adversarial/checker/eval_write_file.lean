-- family: effects
-- attack: #eval writing a file while the module compiles
-- refused: command-not-allowed @ 4
#eval IO.FS.writeFile "/tmp/paperlint-owned" "x"
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

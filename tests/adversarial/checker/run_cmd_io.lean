-- family: effects
-- attack: run_cmd running a process
-- refused: command-not-allowed @ 4
run_cmd do let _ ← IO.Process.output { cmd := "sh", args := #["-c", "id"] }
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

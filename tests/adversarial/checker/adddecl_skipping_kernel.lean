-- family: evidence-rewriting
-- attack: a theorem added by a meta program with the kernel check skipped
-- refused: debug-option @ 6
-- checker: kernel-replay-failed
-- facts: {"replay": {"ok": false, "error": "(kernel) declaration type mismatch, 'main' has type", "constants": 2}}
set_option debug.skipKernelTC true in
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

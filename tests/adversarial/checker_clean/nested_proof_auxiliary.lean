-- clean: an abstracted nested proof
-- facts: {"+added": [{"name": "main._proof_1", "module": "PROOF", "kind": "theorem", "unsafe": false, "partial": false}]}
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  have key : a ≤ b := by exact h
  exact key

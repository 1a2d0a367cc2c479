-- family: evidence-rewriting
-- attack: a partial definition (not replayed)
-- refused: command-not-allowed @ 6
-- checker: added-partial
-- facts: {"+added": [{"name": "loop", "module": "PROOF", "kind": "opaque", "unsafe": false, "partial": true}]}
partial def loop (n : ℕ) : ℕ := loop n
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

-- family: evidence-rewriting
-- attack: an unsafe definition (the kernel replay skips it)
-- refused: command-not-allowed @ 6
-- checker: added-unsafe
-- facts: {"+added": [{"name": "evil", "module": "PROOF", "kind": "def", "unsafe": true, "partial": false}]}
unsafe def evil : ℕ := unsafeCast ()
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

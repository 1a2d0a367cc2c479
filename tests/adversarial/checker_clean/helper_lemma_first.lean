-- clean: a helper lemma before the target
-- facts: {"+added": [{"name": "step_one", "module": "PROOF", "kind": "theorem", "unsafe": false, "partial": false}]}
theorem step_one (a b : ℝ) (h : a ≤ b) : a ≤ b := h
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := step_one a b h

-- clean: identifiers that contain the words
-- facts: {"+added": [{"name": "axiom_free_bound", "module": "PROOF", "kind": "theorem", "unsafe": false, "partial": false}, {"name": "instance_count_le", "module": "PROOF", "kind": "theorem", "unsafe": false, "partial": false}]}
theorem axiom_free_bound (a : ℝ) : a ≤ a := le_refl a
theorem instance_count_le (implemented_by_n : ℕ) : implemented_by_n ≤ implemented_by_n := le_refl _
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

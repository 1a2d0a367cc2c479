-- clean: a match in the proof makes a matcher auxiliary
-- facts: {"+added": [{"name": "main.match_1", "module": "PROOF", "kind": "def", "unsafe": false, "partial": false}], "+entries": [{"module": "PROOF", "extension": "Lean.Meta.Match.Extension.extension", "count": 1}, {"module": "PROOF", "extension": "Lean.Compiler.inlineAttrs", "count": 1}]}
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  rcases le_or_lt a b with h' | h'
  · exact h'
  · exact h

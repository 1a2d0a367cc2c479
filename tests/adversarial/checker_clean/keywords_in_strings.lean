-- clean: keywords inside string literals in a proof
-- facts: {"+added": [{"name": "string_words", "module": "PROOF", "kind": "theorem", "unsafe": false, "partial": false}]}
theorem string_words : ("instance axiom run_cmd #eval IO.FS.writeFile" : String).length > 0 := by
  decide
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

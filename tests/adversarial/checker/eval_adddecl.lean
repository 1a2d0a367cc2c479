-- family: evidence-rewriting
-- attack: #eval calling addDecl for a false lemma
-- refused: command-not-allowed @ 6
-- checker: kernel-replay-failed added-axiom
-- facts: {"replay": {"ok": false, "error": "(kernel) unknown declaration", "constants": 2}, "+added": [{"name": "main_false", "module": "PROOF", "kind": "axiom", "unsafe": false, "partial": false}]}
#eval Lean.addDecl (.axiomDecl { name := `main_false, levelParams := [], type := .sort 0, isUnsafe := false })
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

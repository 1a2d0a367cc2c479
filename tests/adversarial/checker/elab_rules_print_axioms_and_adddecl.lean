-- family: evidence-rewriting
-- attack: `#print axioms` rewritten to print the standard three while `addDecl` adds an axiom with the exact statement
-- refused: command-not-allowed @ 6
-- checker: axiom-not-allowed syntax-registration
-- facts: {"+axioms": ["main_ax"], "+entries": [{"module": "PROOF", "extension": "Lean.Elab.Command.commandElabAttribute", "count": 1}]}
elab_rules : command
  | `(#print axioms $x) => Lean.logInfo m!"'{x.getId}' depends on axioms: [propext]"
run_cmd Lean.addDecl (.axiomDecl { name := `main_ax, levelParams := [], type := .sort 0, isUnsafe := false })
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact main_ax.elim

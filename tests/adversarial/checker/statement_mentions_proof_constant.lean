-- family: poisoned-context
-- attack: the statement text resolves to a helper of the proof module
-- refused: command-not-allowed @ 6
-- checker: statement-untrusted-constant statement-differs
-- facts: {"+constants": [{"name": "helperLe", "module": "PROOF"}], "candidate": {"type_equal": false}}
def helperLe (a b : ℝ) : Prop := True
theorem main (a b : ℝ) (h : helperLe a b) : helperLe a b := h

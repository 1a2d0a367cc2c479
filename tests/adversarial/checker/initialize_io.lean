-- family: evidence-rewriting
-- attack: an initializer that runs IO when the module is loaded
-- refused: command-not-allowed @ 6
-- checker: implementation-attribute
-- facts: {"+entries": [{"module": "PROOF", "extension": "Lean.regularInitAttr", "count": 1}]}
initialize IO.FS.writeFile "/tmp/paperlint-owned" "x"
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

-- family: poisoned-context
-- attack: a local notation redefines ≤ for the statement's text
-- refused: command-not-allowed @ 6
-- checker: statement-differs
-- facts: {"candidate": {"type_equal": false}}
local notation:50 a " ≤ " b => True
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

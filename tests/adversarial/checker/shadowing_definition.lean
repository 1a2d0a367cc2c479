-- family: poisoned-context
-- attack: a definition shadowing a gated one in a namespace
-- refused: command-not-allowed @ 6
-- checker: added-definition statement-differs
-- facts: {"+added": [{"name": "Real.paperMean", "module": "PROOF", "kind": "def", "unsafe": false, "partial": false}], "candidate": {"type_equal": false}}
namespace Real
def paperMean (a b : ℝ) : ℝ := max a b
end Real
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

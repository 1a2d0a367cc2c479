-- clean: the word instance in comments
-- facts: {}
-- no instance is declared here; `instance (priority := 10000)` would be refused
/- axiom, elab_rules and #print axioms are only words here -/
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by
  exact h

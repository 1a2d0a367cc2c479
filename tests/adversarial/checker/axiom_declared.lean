-- family: evidence-rewriting
-- attack: an axiom with the statement
-- refused: axiom @ 6
-- checker: added-axiom axiom-not-allowed
-- facts: {"+axioms": ["cheat"], "+added": [{"name": "cheat", "module": "PROOF", "kind": "axiom", "unsafe": false, "partial": false}]}
axiom cheat : ∀ (a b : ℝ), a ≤ b → a ≤ b
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := cheat a b h

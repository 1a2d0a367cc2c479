-- family: evidence-rewriting
-- attack: a private axiom
-- refused: axiom @ 6
-- checker: added-axiom axiom-not-allowed
-- facts: {"+axioms": ["_private.PaperlintCheck.Proof.r.0.cheat"], "+added": [{"name": "_private.PaperlintCheck.Proof.r.0.cheat", "module": "PROOF", "kind": "axiom", "unsafe": false, "partial": false}]}
private axiom cheat : False
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := cheat.elim

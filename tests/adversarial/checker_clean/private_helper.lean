-- clean: a private helper (its name is internal)
-- facts: {"+added": [{"name": "_private.PaperlintCheck.Proof.r.0.aux", "module": "PROOF", "kind": "theorem", "unsafe": false, "partial": false}]}
private theorem aux (a b : ℝ) (h : a ≤ b) : a ≤ b := h
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := aux a b h

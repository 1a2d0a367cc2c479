-- family: poisoned-context
-- attack: a dependency's .olean names a constant like a gated `where` helper the statement unfolds to, under an innocent key Lean's importer reads
-- refused: run-command @ 9
-- checker: duplicate-constant
-- facts: {"+added": [{"name": "paperMean.go", "module": "PaperlintCheck.Gated.r_lem_b_00000000", "kind": "def", "unsafe": false, "partial": false}, {"name": "paperMean.go", "module": "PaperlintCheck.Proof.r_lem_a_00000000", "kind": "def", "unsafe": false, "partial": false}]}
open Lean in
open private Lean.Kernel.Environment.mk Lean.Environment.setCheckedSync from Lean.Environment

run_elab do
  let env ← getEnv
  let forged : ConstantInfo := .defnInfo { name := `paperMean.go, levelParams := [],
    type := .const ``Nat [], value := .lit (.natVal 5), hints := .abbrev, safety := .safe }
  let consts := { env.constants with map₂ := env.constants.map₂.insert `main.aux forged }
  setEnv env  -- with `consts` in its kernel environment (elided)
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := h

"""Re-derive verdicts from their evidence: `validate`, model-free `replay`, the vacuity probe.

- `validate` (`validator.validate`): pure rules over a `Snapshot` of the workspace. Each rule
  recomputes what it checks — the statement's fingerprint from the Lean file, the sha256 of
  every evidence file, the axioms from Lean's recorded output, the hygiene scan, the binders,
  the refutation of the gated statement, the module the engine would write from the gated
  records — and never trusts a recorded boolean. Rule ids: `model.Check`.
- `replay` (`replay.replay_workspace`): `validate`, plus every Lean check re-run — the gated
  draft's type-check, each final build with `#print axioms`, each counterexample — through
  the real `FinalChecker`, or a `ReplayVerifier` when the run was a replay (said so plainly).
- `vacuity`: after a gate PASS the engine calls `probe_draft` (or `run_vacuity_probe`); an
  accepted candidate is a witness that the statement (or a definition) is vacuous, and the
  gate step's `apply` turns the PASS into a BLOCK with `VacuityResult.reason()`.

Layering: this package reads records and builds its Lean from `paperlint.lean.compose` (the
fingerprint, the refutation, the module composition), the module the engine uses too, so that
validator and engine cannot drift. It never imports `paperlint.engine` (the engine imports
`vacuity`); nothing here writes to a workspace.
"""

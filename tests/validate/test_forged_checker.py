"""Forged locks and forged checker records (issue #25): each edit of a real replayed check,
re-hashed as a careful forger would, is rejected by validate with the rule that names it.

The verdict rests on `audits/<id>/checker.json` and on the gate's reference run; validate
recomposes the modules from the records, re-derives the gate's lock from the gate's own run
and every finding from the record's facts, never from the run's `outcome` or a copied hash."""

from __future__ import annotations

import json

import pytest

from paperlint.validate.load import load_snapshot
from paperlint.validate.validator import validate
from tests.validate.conftest import dump, edit_record, load, rehash, rules

MAX = "audits/lem_mean-max"
SQUARE = "audits/lem_mean-square"


def _messages(ws) -> list[str]:
    return [f"{f.rule.value}: {f.message}" for f in validate(load_snapshot(ws))]


def _edit_run(ws, folder: str, change, name: str = "checker.json") -> None:
    path = ws / folder / name
    data = load(path)
    change(data)
    dump(path, data)
    rehash(ws)


def _edit_record(ws, folder: str, change, name: str = "checker.json") -> None:
    _edit_run(ws, folder, lambda run: change(run["record"]), name)


def test_untouched_examples_carry_checker_records_and_validate(examples):
    ws = examples["sample-variance"]
    for folder in (MAX, SQUARE):
        run = load(ws / folder / "checker.json")
        assert run["outcome"] == "accepted" and run["record"]["schema"] == "paperlint.checker/1"
        gate = load(ws / folder / "gate-1.json")
        assert gate["reference"]["run"] == f"{folder}/reference-1.json"
    assert rules(ws) == set()


# --- forged locks ------------------------------------------------------------------------------


def _gate(ws, folder, change):
    """Edit the gate record, then write the engine state that names it again (re-hashed)."""
    path = ws / folder / "gate-1.json"
    data = load(path)
    change(data)
    dump(path, data)
    edit_record(ws, "lem:mean-max", lambda entry: None)
    rehash(ws)


def test_a_gate_lock_set_to_null_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    _gate(ws, MAX, lambda g: g.update(reference=None))
    assert "reference-unlocked" in rules(ws)


def test_a_gate_with_its_elaboration_and_lock_nulled_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    _gate(ws, MAX, lambda g: g.update(reference=None, elaboration=None))
    assert "reference-unlocked" in rules(ws)


def test_the_final_check_copied_into_the_lock_is_rejected(copy_of):
    """The gate's lock pointed at the final checker run: not the reference job it must be."""
    ws = copy_of("sample-variance")
    _gate(ws, MAX, lambda g: g["reference"].update(run=f"{MAX}/checker.json"))
    assert "reference-unlocked" in rules(ws)


def test_a_lock_whose_hash_was_copied_but_whose_run_differs_is_rejected(copy_of):
    """The gate record's own copy of the hash is never read: the run decides."""
    ws = copy_of("sample-variance")
    _edit_record(ws, MAX, lambda r: r["reference"].update(type="∀ (a b : ℝ), True"),
                 name="reference-1.json")  # fmt: skip
    assert "statement-changed" in rules(ws)


def test_a_lock_run_that_did_not_pass_locks_nothing(copy_of):
    ws = copy_of("sample-variance")
    _edit_run(ws, MAX, lambda run: run.update(outcome="rejected"), name="reference-1.json")
    assert "reference-unlocked" in rules(ws)


# --- forged checker records --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("what", "change", "rule"),
    [
        ("a planted instance changed the type",
         lambda r: r["candidate"].update(type_equal=False), "statement-differs"),
        ("elab_rules on #print axioms + addDecl of an axiom",
         lambda r: r.update(axioms=["propext", "lem_mean_max_ax"]), "axiom-not-allowed"),
        ("sorry under a macro",
         lambda r: r.update(axioms=["sorryAx"]), "axiom-not-allowed"),
        ("an elab_rules registration in the proof module",
         lambda r: r["entries"].append({"module": r["candidate_module"], "count": 1,
                                        "extension": "Lean.Elab.Command.commandElabAttribute"}),
         "syntax-registration"),
        ("an instance in the proof module",
         lambda r: r["entries"].append({"module": r["candidate_module"], "count": 1,
                                        "extension": "Lean.Meta.instanceExtension"}),
         "added-instance"),
        ("addDecl with the kernel check skipped",
         lambda r: r.update(replay={"ok": False, "error": "(kernel) unknown constant",
                                    "constants": 3}), "kernel-replay-failed"),
        ("an axiom added in the proof module",
         lambda r: r["added"].append({"name": "cheat", "module": r["candidate_module"],
                                      "kind": "axiom", "unsafe": False, "partial": False}),
         "added-axiom"),
        ("implemented_by in the proof module",
         lambda r: r["entries"].append({"module": r["candidate_module"], "count": 1,
                                        "extension": "Lean.Compiler.implementedByAttr"}),
         "implementation-attribute"),
        ("the statement reaches a proof-module constant",
         lambda r: r["reference"]["constants"].append({"name": "instBad",
                                                       "module": r["candidate_module"]}),
         "statement-untrusted-constant"),
        ("a target declared elsewhere",
         lambda r: r["candidate"].update(module="PaperlintCheck.Gated.r_x"), "target-module"),
    ],
)  # fmt: skip
def test_a_record_whose_facts_break_a_rule_is_rejected_naming_it(copy_of, what, change, rule):
    ws = copy_of("sample-variance")
    _edit_record(ws, MAX, change)
    assert "checker-finding" in rules(ws)
    assert any(m.startswith(f"checker-finding: {rule}:") for m in _messages(ws)), what


def test_the_runs_own_outcome_is_not_evidence(copy_of):
    """`accepted` written over a record that shows an instance: the facts decide."""
    ws = copy_of("sample-variance")

    def forge(run):
        run["record"]["entries"].append(
            {
                "module": run["record"]["candidate_module"],
                "extension": "Lean.Meta.instanceExtension",
                "count": 1,
            }
        )
        run.update(outcome="accepted", code=None, hint=None)

    _edit_run(ws, MAX, forge)  # fmt: skip
    assert any("added-instance" in m for m in _messages(ws))


def test_an_accepted_run_without_a_record_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    _edit_run(ws, MAX, lambda run: run.update(record=None))
    assert "checker-failed" in rules(ws)


def _drop_checker(ws) -> None:
    (ws / MAX / "checker.json").unlink()
    edit_record(ws, "lem:mean-max", lambda e: e["evidence"].update(checker=None))
    rehash(ws)


def test_a_missing_checker_record_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    _drop_checker(ws)
    assert "checker-missing" in rules(ws)


def test_a_forged_second_kernel_pass_does_not_stand_in_for_the_checker(copy_of):
    ws = copy_of("sample-variance")
    path = ws / MAX / "final-check.json"
    second = {"tool": "lean4checker", "command": [], "exit_code": 0, "ok": True, "output": ""}
    dump(path, load(path) | {"second_kernel": second})
    _drop_checker(ws)
    assert "checker-missing" in rules(ws)


def test_a_record_of_other_modules_is_stale(copy_of):
    """The proof the records hold was edited: the checker judged other modules."""
    ws = copy_of("sample-variance")
    _edit_run(ws, MAX, lambda run: run["modules"][-1].update(sha256="0" * 64))
    _edit_run(ws, MAX, lambda run: run.update(key="0" * 64))
    assert "checker-stale" in rules(ws)


def test_a_condition_the_checked_statement_does_not_have_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    _edit_record(ws, SQUARE, lambda r: r["reference"].update(hypotheses=[]))
    assert "conditions-mismatch" in rules(ws)


def test_a_condition_shaped_hypothesis_not_listed_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    hidden = {"name": "h_cite_extra", "type": "False", "binder": "default"}
    _edit_record(ws, MAX, lambda r: r["reference"]["hypotheses"].append(hidden))
    assert "hidden-hypothesis" in rules(ws)


def test_axioms_other_than_the_checkers_are_rejected(copy_of):
    ws = copy_of("sample-variance")
    _edit_record(ws, MAX, lambda r: r.update(axioms=["propext"]))
    assert "axioms-mismatch" in rules(ws)


def test_a_checker_record_at_another_path_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    other = ws / SQUARE / "checker.json"
    edit_record(
        ws, "lem:mean-max", lambda e: e["evidence"].update(checker=f"{SQUARE}/checker.json")
    )
    rehash(ws)
    assert other.is_file() and "checker-missing" in rules(ws)


def test_garbage_in_the_checker_record_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    (ws / MAX / "checker.json").write_text(json.dumps({"outcome": "accepted"}))
    rehash(ws)
    assert "checker-failed" in rules(ws)

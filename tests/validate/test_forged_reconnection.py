"""Forged reconnections (issue #14), each edited from the replayed fixtures/reconnect check the
way a careful cheat would (re-hashing what it touches): a discharge counts only if it
re-derives, so every forgery below is rejected, and the untouched workspace validates clean."""

import shutil
from pathlib import Path

import pytest

from tests.validate.conftest import (
    ROOT,
    dump,
    edit_record,
    edit_text,
    load,
    recording_with,
    rehash,
    rules,
)

RESULT = "thm:sq-add"
MODULE = "lean/Paper/Thm_sq_add_reconnect_1.lean"
CHECKER = "audits/thm_sq-add/reconnect-1-checker.json"  # the trusted checker's run (#25)
RECORD = "audits/thm_sq-add/reconnect-1.json"


@pytest.fixture(scope="module")
def reconnected(tmp_path_factory):
    from paperlint.cli.root import run

    fixture = ROOT / "fixtures" / "reconnect"
    work = tmp_path_factory.mktemp("reconnected") / "ws"
    argv = ["check", str(fixture / "paper.tex"), "--replay", str(fixture / "replay")]
    assert run([*argv, "--workdir", str(work)]) == 0
    return work


@pytest.fixture
def forged(reconnected, tmp_path):
    target = tmp_path / "ws"
    shutil.copytree(reconnected, target)
    return target


def _both(ws, change) -> None:
    """Edit the reconnection in the engine state (the reconnect step's slot, `reconnections`
    in the merged view) and in its record file alike."""
    edit_record(ws, RESULT, lambda e: change(e["work"]["reconnections"][0]))
    data = load(ws / RECORD)
    change(data)
    dump(ws / RECORD, data)
    rehash(ws)


def test_the_untouched_reconnection_validates_clean(reconnected):
    assert rules(reconnected) == set()


def test_an_upgrade_without_any_reconnection_is_rejected(forged):
    edit_record(forged, RESULT, lambda e: e["work"].pop("reconnections"))
    found = rules(forged)
    assert {"unconditional-has-conditions", "conditions-mismatch", "hidden-hypothesis"} <= found


def test_a_discharge_proved_by_sorry_is_rejected(forged):
    """The file a referee reads says `sorry`: it is not what the records compose to, and the
    checker's run is of the composed declaration, not of this file."""
    edit_text(
        forged / MODULE,
        "  thm_sq_add (x := x) (h_clause_lem_sq := lem_sq)",
        "  by sorry",
    )
    rehash(forged)
    found = rules(forged)
    assert "discharge-invalid" in found
    assert "unconditional-has-conditions" in found  # nothing was discharged


def test_a_declaration_by_sorry_run_through_the_checker_is_stale(forged):
    """A forger records a `sorry` declaration everywhere (engine state, record, file) and a
    checker run that accepts it: the run is not of the layout the gated records compose."""
    sorry = "theorem thm_sq_add_reconnected (x : ℝ) : 0 < x ^ 2 + 1 :=\n  by sorry"
    original = load(forged / RECORD)["declaration"]
    _both(forged, lambda found: found.update(declaration=sorry))
    edit_text(forged / MODULE, original, sorry)
    rehash(forged)
    assert "discharge-invalid" in rules(forged)


def test_a_discharge_by_another_theorem_is_rejected(forged):
    def change(found):
        found["discharges"][0]["by"] = "thm_sq_add"

    _both(forged, change)
    assert {"discharge-invalid", "unconditional-has-conditions"} <= rules(forged)


def test_a_discharge_whose_predecessor_is_not_verified_is_rejected(forged):
    def downgrade(entry):
        entry["verdict"] = "verified_conditional"

    edit_record(forged, "lem:sq", downgrade)
    assert "discharge-invalid" in rules(forged)


def _checker(forged, change) -> None:
    data = load(forged / CHECKER)
    change(data)
    dump(forged / CHECKER, data)
    rehash(forged)


def test_a_discharge_claimed_accepted_whose_checker_failed_is_rejected(forged):
    def failed(run):
        run["compile"][-1].update(exit_code=1, output="type mismatch")
        run.update(outcome="rejected", record=None, code="lean_error")

    _checker(forged, failed)
    assert "discharge-invalid" in rules(forged)


def test_a_discharge_with_forged_axioms_is_rejected(forged):
    _checker(forged, lambda run: run["record"]["axioms"].append("sorryAx"))
    assert "discharge-invalid" in rules(forged)


def test_a_discharge_whose_type_is_not_the_reference_is_rejected(forged):
    _checker(forged, lambda run: run["record"]["candidate"].update(type_equal=False))
    assert "discharge-invalid" in rules(forged)


def test_a_discharge_whose_checker_run_is_dropped_is_rejected(forged):
    """Back to the pre-checker evidence (a cold build record) in a run that used the
    checker: no discharge without the checker's run."""
    (forged / CHECKER).unlink()
    _both(forged, lambda found: found.update(checker=None, final_check=CHECKER))
    assert "discharge-invalid" in rules(forged)


def test_the_discharge_reference_is_the_gated_statement_without_the_clause(forged):
    from paperlint.lean.modules import DISCHARGE

    run = load(forged / CHECKER)
    assert run["request"]["reference_module"].startswith(DISCHARGE + ".")
    reference = run["record"]["reference"]
    assert [h["name"] for h in reference["hypotheses"]] == ["x"]  # the clause is gone
    assert run["record"]["candidate"]["type_equal"] is True


def test_a_record_file_that_disagrees_with_the_engine_state_is_rejected(forged):
    data = load(forged / RECORD)
    data["discharges"][0]["condition"] = "h_other"
    dump(forged / RECORD, data)
    rehash(forged)
    assert "discharge-invalid" in rules(forged)


def test_a_clause_that_is_not_of_kind_iii_cannot_be_discharged(forged):
    def change(entry):
        entry["work"]["draft"]["conditions"][0]["kind"] = "cited"

    edit_record(forged, RESULT, change)
    assert "discharge-invalid" in rules(forged)


def test_a_recorded_declaration_other_than_the_composed_one_is_rejected(forged):
    # dependents build on the recorded declaration: it must be the one the records compose to
    def change(found):
        found["declaration"] = "theorem thm_sq_add_reconnected : False := sorry"

    _both(forged, change)
    assert "discharge-invalid" in rules(forged)


def test_replay_refutes_a_recording_whose_discharge_has_another_type(reconnected, tmp_path):
    """The discharge is re-run through the checker: a recording in which its type is not the
    reference's (the gated statement without the clause) discharges nothing."""
    from paperlint.validate.load import load_snapshot
    from paperlint.validate.replay import choose_lean, replay_workspace

    def other(record):
        if record["target"] == "thm_sq_add_reconnected":
            record["candidate"]["type_equal"] = False

    recording = Path(recording_with(tmp_path, "reconnect", other))
    snap = load_snapshot(reconnected)
    report = replay_workspace(snap, reconnected, choose_lean(snap, recording))
    one = next(r for r in report.results if r.id == RESULT)
    rerun = next(r for r in one.lean if r.file == CHECKER)
    assert rerun.status == "refuted" and "statement-differs" in rerun.detail
    assert one.rederived == "unfinished"

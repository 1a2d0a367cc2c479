"""Forged reconnections (issue #14), each edited from the replayed fixtures/reconnect check the
way a careful cheat would (re-hashing what it touches): a discharge counts only if it
re-derives, so every forgery below is rejected, and the untouched workspace validates clean."""

import shutil

import pytest

from tests.validate.conftest import ROOT, dump, edit_record, edit_text, load, rehash, rules, sha

RESULT = "thm:sq-add"
MODULE = "lean/Paper/Thm_sq_add_reconnect_1.lean"
CHECK = "audits/thm_sq-add/reconnect-1-check.json"
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
    """Edit the reconnection in the engine state and in its record file alike."""
    edit_record(ws, RESULT, lambda e: change(e["work"]["reconnections"][0]))
    data = load(ws / RECORD)
    change(data)
    dump(ws / RECORD, data)
    rehash(ws)


def test_the_untouched_reconnection_validates_clean(reconnected):
    assert rules(reconnected) == set()


def test_an_upgrade_without_any_reconnection_is_rejected(forged):
    edit_record(forged, RESULT, lambda e: e["work"].update(reconnections=[]))
    found = rules(forged)
    assert {"unconditional-has-conditions", "conditions-mismatch", "hidden-hypothesis"} <= found


def test_a_discharge_proved_by_sorry_is_rejected(forged):
    edit_text(
        forged / MODULE,
        "  thm_sq_add (x := x) (h_clause_lem_sq := lem_sq)",
        "  by sorry",
    )
    rehash(forged)
    data = load(forged / CHECK)
    data["file_sha256"] = sha(forged / MODULE)
    dump(forged / CHECK, data)
    rehash(forged)
    found = rules(forged)
    assert "discharge-invalid" in found
    assert "unconditional-has-conditions" in found  # nothing was discharged


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


def test_a_discharge_claimed_accepted_with_a_failed_final_check_is_rejected(forged):
    data = load(forged / CHECK)
    data["exit_code"] = 1
    data["errors"] = ["type mismatch"]
    dump(forged / CHECK, data)
    rehash(forged)
    assert "discharge-invalid" in rules(forged)


def test_a_discharge_with_forged_axioms_is_rejected(forged):
    data = load(forged / CHECK)
    data["axioms"]["thm_sq_add_reconnected"].append("sorryAx")
    dump(forged / CHECK, data)
    rehash(forged)
    assert "discharge-invalid" in rules(forged)


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

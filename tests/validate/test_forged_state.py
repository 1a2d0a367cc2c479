"""The engine state file (`engine/state-*.json`) is read by the validator but never trusted:
removing, editing, redirecting or re-embedding it can only fail verdicts, never pass one."""

import json

import pytest

from tests.validate.conftest import dump, edit_record, load, load_merged, rules

VERIFIED = ("lem:mean-max", "lem:mean-square")


def _findings(ws):
    from paperlint.validate.load import load_snapshot
    from paperlint.validate.validator import validate

    return validate(load_snapshot(ws))


def test_the_untouched_workspace_names_its_state_and_validates(copy_of):
    ws = copy_of("sample-variance")
    data = load(ws / "results.json")
    assert data["engine_state"].startswith("engine/state-")
    assert all("work" not in entry for entry in data["results"])
    assert rules(ws) == set()


def test_a_deleted_state_fails_every_verdict(copy_of):
    ws = copy_of("sample-variance")
    (ws / load(ws / "results.json")["engine_state"]).unlink()
    findings = _findings(ws)
    assert "engine-state" in {f.rule.value for f in findings}
    flagged = {f.result for f in findings if f.result}
    assert set(VERIFIED) | {"prop:square", "thm:product"} <= flagged


def test_a_state_edited_in_place_is_refused_by_its_name(copy_of):
    ws = copy_of("sample-variance")
    path = ws / load(ws / "results.json")["engine_state"]
    path.write_text(path.read_text().replace('"clean": true', '"clean": false', 1))
    assert "engine-state" in rules(ws)


@pytest.mark.parametrize(
    ("target", "rule"),
    [
        ("audits/lem_mean-max/final-audit.json", "engine-state"),
        ("../results.json", "engine-state"),
        ("engine/state-x.json", "engine-state"),
        (7, "results-schema"),  # not even a path: the envelope is invalid
    ],
)
def test_results_json_cannot_point_the_state_elsewhere(copy_of, target, rule):
    ws = copy_of("sample-variance")
    data = load(ws / "results.json")
    dump(ws / "results.json", {**data, "engine_state": target})
    assert rule in rules(ws)


def test_work_embedded_again_in_a_current_record_is_a_schema_error(copy_of):
    ws = copy_of("sample-variance")
    merged = load_merged(ws)
    dump(ws / "results.json", merged)  # v2 envelope, v1-style records
    assert "results-schema" in rules(ws)


def test_a_careful_forgers_state_edit_is_caught_by_the_audit_files(copy_of):
    """Renamed after its new content, the state passes the name check; its copy of the
    final audit still has to equal `audits/…/final-audit.json`."""
    ws = copy_of("sample-variance")
    edit_record(ws, "lem:mean-max", lambda e: e["work"]["audit"].update(decision="FAIL"))
    assert "audit-record-mismatch" in rules(ws)


def test_a_downgrade_to_v1_validates_the_embedded_state_the_same_way(copy_of):
    ws = copy_of("sample-variance")
    merged = load_merged(ws)
    (ws / merged.pop("engine_state")).unlink()
    v1 = {**merged, "schema": "paperlint.results/1"}
    dump(ws / "results.json", v1)
    assert rules(ws) == set()  # an old workspace is read, upgraded in memory
    for entry in v1["results"]:
        if entry["id"] == "lem:mean-square":
            entry["work"]["final"]["axioms_ok"] = False
    dump(ws / "results.json", v1)
    assert "engine-audit-failed" in rules(ws)


def test_a_state_entry_of_the_wrong_shape_fails_only_that_result(copy_of):
    ws = copy_of("sample-variance")
    edit_record(ws, "lem:mean-max", lambda e: e["work"].update(gates="not a list"))
    findings = _findings(ws)
    state = [f for f in findings if f.rule.value == "engine-state"]
    assert [f.result for f in state] == ["lem:mean-max"]
    assert "lem:mean-square" not in {f.result for f in findings}
    assert json.loads(json.dumps([f.to_json() for f in state]))  # renders

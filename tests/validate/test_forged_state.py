"""The engine state file (`engine/state-*.json`) is read by the validator but never trusted:
removing, editing, redirecting or re-embedding it can only fail verdicts, never pass one."""

import json
import re

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


# --- engine-state/2: the outputs the state keeps are references to audits/ files -------------

MAX = "lem:mean-max"
MAX_DIR = "audits/lem_mean-max"


def _state_path(ws) -> tuple[dict, str]:
    data = load(ws / "results.json")
    return data, data["engine_state"]


def _edit_refs(ws, change) -> None:
    """Change the state file as a forger would: consistently, renamed after its content."""
    import hashlib

    data, path = _state_path(ws)
    state = load(ws / path)
    change(state["work"][MAX])
    text = json.dumps(state, indent=2) + "\n"
    name = f"engine/state-{hashlib.sha256(text.encode()).hexdigest()[:16]}.json"
    (ws / path).unlink()
    (ws / name).write_text(text)
    dump(ws / "results.json", {**data, "engine_state": name})


def _sha_of(ws, rel: str) -> str:
    import hashlib

    return hashlib.sha256((ws / rel).read_bytes()).hexdigest()


def _point_draft(ref: str, sha: str):
    return lambda work: work["slots"]["draft"].update(draft={"ref": ref, "sha256": sha})


def _own_file(ws, text: str) -> str:
    """A file with `text` where the state may keep a draft of its own, named as the engine
    names one."""
    import hashlib

    rel = f"{MAX_DIR}/state-draft-{hashlib.sha256(text.encode()).hexdigest()[:16]}.json"
    (ws / rel).write_text(text)
    return rel


def _hostile(ws, case: str, outside) -> None:
    draft = f"{MAX_DIR}/draft-1.json"
    if case == "parent-escape":
        _edit_refs(ws, _point_draft("../../etc/passwd", "0" * 64))
    elif case == "dotdot-folder":
        (ws / "audits" / "x.json").write_bytes((ws / draft).read_bytes())
        _edit_refs(ws, _point_draft("audits/../x.json", _sha_of(ws, draft)))
    elif case == "absolute":
        _edit_refs(ws, _point_draft("/etc/passwd", "0" * 64))
    elif case == "symlink-out":
        target = outside / "draft.json"
        target.write_bytes((ws / draft).read_bytes())
        (ws / MAX_DIR / "draft-7.json").symlink_to(target)
        _edit_refs(ws, _point_draft(f"{MAX_DIR}/draft-7.json", _sha_of(ws, draft)))
    elif case == "symlinked-folder":
        import shutil

        shutil.copytree(ws / MAX_DIR, outside / "lem_mean-max")
        shutil.rmtree(ws / MAX_DIR)
        (ws / MAX_DIR).symlink_to(outside / "lem_mean-max", target_is_directory=True)
    elif case == "wrong-hash":
        _edit_refs(ws, _point_draft(draft, "0" * 64))
    elif case == "file-edited":
        text = (ws / MAX_DIR / "final-audit.json").read_text()
        (ws / MAX_DIR / "final-audit.json").write_text(text.replace('"PASS"', '"FAIL"'))
    elif case == "missing":
        (ws / draft).unlink()
    elif case == "another-results-file":
        other = "audits/lem_mean-square/draft-1.json"
        _edit_refs(ws, _point_draft(other, _sha_of(ws, other)))
    elif case == "wrong-kind-of-file":
        plan = f"{MAX_DIR}/plan.json"
        _edit_refs(ws, _point_draft(plan, _sha_of(ws, plan)))
    elif case == "not-json":
        rel = _own_file(ws, "{not json")
        _edit_refs(ws, _point_draft(rel, _sha_of(ws, rel)))
    elif case == "not-the-output":
        rel = _own_file(ws, '{"statement": 1}')
        _edit_refs(ws, _point_draft(rel, _sha_of(ws, rel)))
    elif case == "gate-without-envelope":
        rel = _own_file(ws, (ws / draft).read_text())
        gate = rel.replace("state-draft-", "state-gate-")
        (ws / rel).rename(ws / gate)
        refs = [{"ref": gate, "sha256": _sha_of(ws, gate)}]
        _edit_refs(ws, lambda w: w["slots"]["gate"].update(gates=refs))
    else:
        raise AssertionError(case)


# case -> what the engine says (StateError) when it loads the workspace
HOSTILE = {
    "parent-escape": "String should match pattern",
    "dotdot-folder": "is not a path audits/<id>/<name>.json",
    "absolute": "String should match pattern",
    "symlink-out": "a symlink, not read",
    "symlinked-folder": "a symlink, not read",
    "wrong-hash": "changed since the state named it",
    "file-edited": "final-audit.json: changed since the state named it",
    "missing": "draft-1.json: missing",
    "another-results-file": "is not in lem:mean-max's own folder audits/lem_mean-max/",
    "wrong-kind-of-file": "is not a file that holds a draft output",
    "not-json": "not JSON",
    "not-the-output": "not a valid DraftOutput",
    "gate-without-envelope": "not a valid GateOutput",
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_reference_is_refused_by_the_engine(copy_of, tmp_path, case):
    from paperlint.errors import StateError
    from paperlint.records.workspace import load_results_at

    ws = copy_of("sample-variance")
    (tmp_path / "outside").mkdir()
    _hostile(ws, case, tmp_path / "outside")
    with pytest.raises(StateError, match=re.escape(HOSTILE[case])) as caught:
        load_results_at(ws / "results.json")
    message = str(caught.value)
    assert MAX in message and str(ws / "engine") in message  # which result, which file
    assert "paperlint check --fresh" in message  # and what to do


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_reference_only_fails_its_own_verdict(copy_of, tmp_path, case):
    ws = copy_of("sample-variance")
    (tmp_path / "outside").mkdir()
    _hostile(ws, case, tmp_path / "outside")
    findings = _findings(ws)
    state = [f for f in findings if f.rule.value == "engine-state"]
    assert [f.result for f in state] == [MAX], [f.to_json() for f in findings]
    failed = {f.result for f in findings if f.rule.value != "engine-state"}
    assert MAX in failed  # its working state is empty: the verdict does not re-derive
    assert "lem:mean-square" not in failed | {f.result for f in state}


def test_the_state_names_each_kept_output_by_its_audit_file(copy_of):
    """No agent output is copied into the state: each is the file that holds it."""
    ws = copy_of("sample-variance")
    data, path = _state_path(ws)
    state = load(ws / path)
    assert state["schema"] == "paperlint.engine-state/6"
    work = state["work"][MAX]
    slots = work["slots"]  # the plan, draft and gate steps' (issue #27)
    assert slots["plan"]["plan"] == {
        "ref": f"{MAX_DIR}/plan.json",
        "sha256": _sha_of(ws, slots["plan"]["plan"]["ref"]),
    }
    assert [g["ref"] for g in slots["gate"]["gates"]] == [f"{MAX_DIR}/gate-1.json"]
    assert slots["draft"]["draft"]["ref"] == f"{MAX_DIR}/draft-1.json"
    assert slots["audit"]["audit"]["ref"] == f"{MAX_DIR}/final-audit.json"
    square = state["work"]["prop:square"]
    assert square["slots"]["check_issue"]["ruling"]["ref"] == "audits/prop_square/issue.json"
    assert (
        square["slots"]["review_issue"]["review"]["ref"] == "audits/prop_square/issue-review.json"
    )
    assert not list(ws.glob("audits/*/state-*.json"))  # every output has its audit file

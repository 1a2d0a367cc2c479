"""A real `paperlint.results/1` workspace (fixtures/workspaces/, written by the engine before
the working state left `results.json`) is read, migrated and checked by today's commands."""

import ast
import json
import shutil
from pathlib import Path

import jsonschema
import pytest

from paperlint.cli.root import run
from paperlint.errors import StateError
from paperlint.records.migrate import upgrade
from paperlint.records.results import RESULTS_SCHEMA
from paperlint.records.slots import audited, drafting
from paperlint.records.state import (
    _LEGACY_SLOTS,
    ENGINE_STATE_SCHEMA,
    ENGINE_STATE_V1,
    ENGINE_STATE_V2,
    ENGINE_STATE_V3,
    ENGINE_STATE_V4,
    ENGINE_STATE_V5,
    files_reader,
    is_state_path,
    parse_entry,
    path_for,
)
from paperlint.records.work import ResultWork, slot_types
from paperlint.records.workspace import Workspace, load_results_at, migrate_workspace, write_results
from tests.engine.conftest import check_argv, reference_run, run_cli_forked
from tests.workstate import evolved, flat

ROOT = Path(__file__).resolve().parents[2]
V1 = ROOT / "fixtures" / "workspaces" / "v1-sample-variance"
LEAN_REPLAY = ROOT / "fixtures" / "sample-variance" / "replay"


@pytest.fixture
def old(tmp_path: Path) -> Path:
    target = tmp_path / "old.paperlint"
    shutil.copytree(V1, target)
    return target


def _json(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))


def test_the_fixture_is_a_v1_workspace_with_embedded_work():
    data = _json(V1 / "results.json")
    assert data["schema"] == "paperlint.results/1"
    assert all("work" in entry for entry in data["results"])
    assert not (V1 / "engine").exists()


def test_migrate_moves_the_working_state_out_and_keeps_every_contract_field(old, capsys):
    before = _json(old / "results.json")
    assert run(["migrate", str(old)]) == 0
    assert "migrated paperlint.results/1 -> paperlint.results/2" in capsys.readouterr().out
    after = _json(old / "results.json")
    assert after["schema"] == RESULTS_SCHEMA
    assert is_state_path(after["engine_state"])
    state = _json(old / after["engine_state"])
    assert state["schema"] == ENGINE_STATE_SCHEMA
    assert list(state["work"]) == [e["id"] for e in before["results"]]
    loaded = {r.id: r.work for r in load_results_at(old / "results.json").results}
    for old_entry, new_entry in zip(before["results"], after["results"], strict=True):
        assert "work" not in new_entry
        assert {k: v for k, v in old_entry.items() if k != "work"} == new_entry
        # engine-state/2: the outputs are named by their audits/ files, the rest as it was;
        # /5: a step's field in its slot
        kept = state["work"][old_entry["id"]]
        for name, value in old_entry["work"].items():
            where, model, field = kept, ResultWork, name
            for kind, moved in _LEGACY_SLOTS.items():
                if name in moved:
                    where, model = kept.get("slots", {}).get(kind, {}), slot_types()[kind]
                    field = moved[name]
            if name == "counterexample" and "check_issue" in kept.get("slots", {}):
                where = kept["slots"]["check_issue"]  # the checker's, once it ruled
            if field not in model.REFS:
                assert where.get(field, value) == value
            elif value:
                refs = where[field] if isinstance(value, list) else [where[field]]
                assert all(r["ref"].startswith("audits/") for r in refs)
        # the inline /1 entry, its steps' fields moved into their slots (`_LEGACY_SLOTS`)
        inline = parse_entry(old_entry["id"], old_entry["work"], ENGINE_STATE_V1, files_reader({}))
        assert loaded[old_entry["id"]] == inline
    rest = {k: v for k, v in after.items() if k not in ("schema", "engine_state", "results")}
    assert rest == {k: v for k, v in before.items() if k not in ("schema", "results")}


def test_the_migrated_files_validate_against_the_committed_schemas(old):
    # The committed schemas (schemas/, tests/test_schemas.py) describe the files a run writes.
    assert migrate_workspace(old) == "paperlint.results/1"
    results = _json(old / "results.json")
    state = _json(old / results["engine_state"])
    for name, data in (("results", results), ("engine-state", state)):
        schema = _json(ROOT / "schemas" / f"{name}.schema.json")
        jsonschema.Draft202012Validator(schema).validate(data)
    schema = _json(ROOT / "schemas" / "engine-state.schema.json")
    state["work"][next(iter(state["work"]))]["slots"]["draft"]["rounds"] = "two"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(schema).validate(state)


def test_a_second_migrate_changes_nothing(old, capsys):
    assert migrate_workspace(old) == "paperlint.results/1"
    first = (old / "results.json").read_bytes()
    assert run(["migrate", str(old)]) == 0
    assert "nothing to do" in capsys.readouterr().out
    assert (old / "results.json").read_bytes() == first


def test_loading_upgrades_in_memory_exactly_as_migrate_writes(old):
    in_memory = load_results_at(old / "results.json")
    migrate_workspace(old)
    stored = load_results_at(old / "results.json")
    assert [r.work for r in in_memory.results] == [r.work for r in stored.results]
    assert in_memory.results == stored.results
    assert any(audited(r.work).final is not None for r in stored.results)  # the state came along


@pytest.mark.parametrize("migrated", [False, True], ids=["read-in-memory", "migrated"])
def test_validate_replay_report_and_status_work_on_an_old_workspace(old, migrated, capsys):
    if migrated:
        migrate_workspace(old)
    assert run(["validate", str(old)]) == 0
    assert run(["replay", str(old), "--lean-replay", str(LEAN_REPLAY)]) == 0
    assert run(["report", str(old)]) == 0
    assert (old / "report" / "report.html").is_file()
    assert run(["status", str(old)]) == 0
    out = capsys.readouterr().out
    assert "verified_unconditional" in out and "issue" in out


def test_an_unknown_schema_is_refused_not_guessed():
    with pytest.raises(ValueError, match="someone.results/1"):
        upgrade({"schema": "someone.results/1", "results": []})


def test_a_newer_schema_says_upgrade():
    from paperlint.errors import InputError

    with pytest.raises(InputError, match=r"made by a newer paperlint \(paperlint.results/9"):
        upgrade({"schema": "paperlint.results/9", "results": []})


# --- the state file beside results.json -----------------------------------------------------


def _migrated(old: Path) -> tuple[Workspace, dict]:
    migrate_workspace(old)
    return Workspace(old), _json(old / "results.json")


def test_write_results_names_a_state_file_that_exists_and_prunes_the_old_one(old):
    ws, data = _migrated(old)
    results = ws.load_results()
    first = results.results[0]
    changed = results.model_copy(
        update={"results": [first.with_work(evolved(first.work, draft_rounds=7))]}
    )
    write_results(ws, changed)
    now = _json(old / "results.json")
    assert now["engine_state"] != data["engine_state"]
    assert sorted(p.name for p in ws.state_dir.glob("state-*.json")) == [
        Path(now["engine_state"]).name
    ]
    assert drafting(ws.load_results().results[0].work).rounds == 7


def test_an_orphan_state_file_from_a_crash_is_harmless_and_pruned(old):
    ws, data = _migrated(old)
    orphan = ws.state_dir / "state-0000000000000000.json"
    orphan.write_text('{"schema": "paperlint.engine-state/1", "work": {}}')
    assert audited(ws.load_results().results[1].work).final is not None  # the named file is read
    write_results(ws, ws.load_results())
    assert not orphan.exists()


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda ws, d: (ws.root / d["engine_state"]).unlink(), "missing"),
        (lambda ws, d: (ws.root / d["engine_state"]).write_text("{}"), "does not match"),
        (lambda ws, d: _point(ws, "audits/lem_mean-max/final-audit.json"), "not an engine"),
        (lambda ws, d: _point(ws, "engine/../../outside.json"), "not an engine"),
    ],
    ids=["missing", "edited", "another-file", "outside"],
)
def test_the_engine_refuses_a_state_file_it_did_not_write(old, edit, message):
    ws, data = _migrated(old)
    edit(ws, data)
    with pytest.raises(StateError, match=message):
        ws.load_results()


def _point(ws: Workspace, path: str) -> None:
    data = _json(ws.results)
    (ws.results).write_text(json.dumps({**data, "engine_state": path}))


def _state_named(ws: Workspace, text: str) -> str:
    """A state file whose name matches its (bad) content: only its shape can refuse it."""
    import hashlib

    name = f"engine/state-{hashlib.sha256(text.encode()).hexdigest()[:16]}.json"
    (ws.root / name).write_text(text)
    return name


@pytest.mark.parametrize(
    ("results_json", "message"),
    [
        (None, "record not found"),
        ("{", "not JSON"),
        ("[]", "not a JSON object"),
        ('{"schema": "someone.results/1"}', "not a valid Results record"),
        ('{"schema": "paperlint.results/2", "results": [{"id": 1}]}', "not a valid Results"),
        (
            '{"schema": "paperlint.results/1", "results": [{"id": "a", "number": null, '
            '"kind": "lemma", "work": {"gates": 3}}]}',
            "not a valid engine state record",
        ),
    ],
    ids=["missing", "not-json", "not-object", "unknown-schema", "bad-record", "bad-v1-work"],
)
def test_load_refuses_what_it_cannot_read(tmp_path, results_json, message):
    path = tmp_path / "results.json"
    if results_json is not None:
        path.write_text(results_json)
    with pytest.raises(StateError, match=message):
        load_results_at(path)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"schema": "paperlint.engine-state/1", "work": {"x": {"gates": 1}}}', "not a valid"),
        ("{not json", "the engine state is not JSON"),
    ],
    ids=["wrong-shape", "not-json"],
)
def test_a_well_named_state_that_is_wrong_inside_is_refused(old, text, message):
    ws, data = _migrated(old)
    _point(ws, _state_named(ws, text))
    with pytest.raises(StateError, match=message):
        ws.load_results()


def test_a_workspace_never_worked_on_has_empty_working_state(tmp_path):
    path = tmp_path / "results.json"
    entry = {"id": "a", "number": None, "kind": "lemma"}
    path.write_text(json.dumps({"schema": RESULTS_SCHEMA, "results": [entry]}))
    assert load_results_at(path).results[0].work == ResultWork()


# --- paperlint.engine-state/1: a results/2 workspace whose state holds the outputs inline ----


def _downgrade(ws: Path) -> str:
    """Rewrite the state as paperlint wrote it before engine-state/2 (every agent output
    copied inline, the steps' state among the shared fields, indented), named after its
    content."""
    results = load_results_at(ws / "results.json")
    work = {r.id: flat(r.work) for r in results.results}
    data = {"schema": ENGINE_STATE_V1, "work": work}
    payload = (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    old = _json(ws / "results.json")["engine_state"]
    new = path_for(payload)
    (ws / old).unlink()
    (ws / new).write_bytes(payload)
    text = (ws / "results.json").read_text(encoding="utf-8")
    (ws / "results.json").write_text(text.replace(old, new), encoding="utf-8")
    return new


@pytest.fixture
def twins(tmp_path: Path) -> tuple[Path, Path]:
    """A finished replayed check (engine-state/2) and a copy whose state is /1."""
    reference, _ = reference_run("sample-variance")
    current, old = tmp_path / "v2", tmp_path / "v1"
    shutil.copytree(reference, current)
    shutil.copytree(reference, old)
    _downgrade(old)
    return current, old


def _report(ws: Path) -> dict[str, str]:
    assert run(["report", str(ws)]) == 0
    texts = {p.name: p.read_text(encoding="utf-8") for p in (ws / "report").glob("report.*")}
    return {name: text.replace(str(ws), "WS") for name, text in texts.items()}


def test_a_state_v1_workspace_loads_validates_and_reports_as_its_v2_twin(twins, capsys):
    current, old = twins
    assert _json(old / _json(old / "results.json")["engine_state"])["schema"] == ENGINE_STATE_V1
    now, then = load_results_at(current / "results.json"), load_results_at(old / "results.json")
    assert [r.work for r in then.results] == [r.work for r in now.results]
    assert any(audited(r.work).audit is not None for r in then.results)
    assert then.results == now.results
    capsys.readouterr()
    assert run(["validate", str(old)]) == 0
    assert run(["validate", str(current)]) == 0
    out = capsys.readouterr().out
    assert out.replace(str(old), "WS").replace(str(current), "WS").count("every verdict") == 2
    assert _report(old) == _report(current)
    capsys.readouterr()
    assert run(["status", str(old)]) == 0
    then_status = capsys.readouterr().out.replace(str(old), "WS")
    assert run(["status", str(current)]) == 0
    assert capsys.readouterr().out.replace(str(current), "WS") == then_status


def test_migrate_rewrites_a_state_v1_as_the_engine_writes_v2(twins, capsys):
    current, old = twins
    assert run(["migrate", str(old)]) == 0
    out = capsys.readouterr().out
    assert f"migrated {ENGINE_STATE_V1} -> {ENGINE_STATE_SCHEMA}" in out
    # byte for byte what the engine wrote: the same references, the same state file name
    assert (old / "results.json").read_bytes() == (current / "results.json").read_bytes()
    name = _json(old / "results.json")["engine_state"]
    assert (old / name).read_bytes() == (current / name).read_bytes()
    assert sorted(p.name for p in (old / "engine").glob("state-*.json")) == [Path(name).name]
    assert not list(old.glob("audits/*/state-*.json"))  # every output had its audit file
    assert run(["migrate", str(old)]) == 0
    assert "nothing to do" in capsys.readouterr().out
    assert run(["validate", str(old)]) == 0
    assert _report(old) == _report(current)


@pytest.mark.parametrize(
    ("index", "older"),
    [(12, "v1"), (47, "v1"), (90, "v1"), (47, "v4")],
)
def test_an_older_state_killed_mid_run_resumes_to_the_same_results(tmp_path, index, older):
    """A check killed by an older paperlint (its state /1, or /4) resumes to an uninterrupted
    run's records, and its state is the current one from the first write."""
    reference, _ = reference_run("sample-variance")
    ws = tmp_path / "ws"
    code = run_cli_forked(
        check_argv("sample-variance", ws), PAPERLINT_FAILPOINT=f"after-event:{index}"
    )
    assert code == 77
    if _json(ws / "results.json").get("engine_state"):
        _downgrade(ws) if older == "v1" else _as_v4(ws)
    assert run_cli_forked(["resume", str(ws)]) == 1
    assert _json(ws / "results.json") == _json(reference / "results.json")
    state = _json(ws / _json(ws / "results.json")["engine_state"])
    assert state["schema"] == ENGINE_STATE_SCHEMA
    assert run_cli_forked(["validate", str(ws)]) == 0


# --- paperlint.engine-state/2 … /5: steps' state among the shared fields ------------------

# What /5 still kept among the shared fields (by kind, slot field -> the old field): the
# suspicion (the prover's or the gate's) and the gate's counterexample.
_V5 = {
    "gate": {"suspicion": "suspicion", "counterexample": "counterexample"},
    "prove": {"suspicion": "suspicion"},
}
# What /4 kept there too: the plan, draft, gate and prove steps', the audit's and the issue
# side's ("": dropped; the ruling's and the review's key `on` is the suspicion beside them;
# the one counterexample field was the checker's once it ruled: `_rewrite` writes it last).
_V4 = {
    "plan": {"plan": "plan"},
    "draft": {"draft": "draft", "rounds": "draft_rounds", "feedback": "draft_feedback"},
    "gate": {"gates": "gates", "fingerprint": "fingerprint", **_V5["gate"]},
    "prove": {"obligations": "obligations", **_V5["prove"]},
    "audit": {"final": "final", "audit": "audit"},
    "check_issue": {"ruling": "ruling", "on": "", "counterexample": "counterexample"},
    "review_issue": {"review": "review", "on": ""},
}


def _as_v5(ws: Path) -> None:
    """Rewrite the state as paperlint wrote /5: the suspicion and the gate's counterexample
    among the shared fields."""
    _rewrite(ws, ENGINE_STATE_V5, lambda kind, name: _V5.get(kind, {}).get(name))


def _as_v4(ws: Path) -> None:
    """Rewrite the state as paperlint wrote /4: the plan, the draft, the gate's answers and
    fingerprint, the obligations, the audit's and the issue side's state among the shared
    fields."""
    _rewrite(ws, ENGINE_STATE_V4, lambda kind, name: _V4.get(kind, {}).get(name))


def _as_v3(ws: Path) -> None:
    """Rewrite the state as paperlint wrote /3: the reconnections among the shared fields too."""
    _rewrite(
        ws,
        ENGINE_STATE_V3,
        lambda kind, name: "reconnections" if kind == "reconnect" else _V4.get(kind, {}).get(name),
    )


def _as_v2(ws: Path) -> None:
    """Rewrite the state as paperlint wrote /2: the second draft's, the restatement's, the
    gate's own state and the reconnections among the shared fields too (their old names)."""
    legacy = {"second_draft": "second_draft_", "restate": "", "gate": "", "reconnect": ""}
    renamed = {"draft": "second_draft", "tried": "reconnections"}

    def old_name(kind: str, name: str) -> str:
        found = _V4.get(kind, {}).get(name)
        return found if found is not None else renamed.get(name, legacy[kind] + name)

    _rewrite(ws, ENGINE_STATE_V2, old_name)


def _rewrite(ws: Path, schema: str, old_name) -> None:
    """The state with each slot field `old_name(kind, field)` names moved among the shared
    fields under that name, as `schema`, named after its content."""
    old = _json(ws / "results.json")["engine_state"]
    state = _json(ws / old)
    for entry in state["work"].values():
        slots = entry.pop("slots", {})
        # the checker's counterexample last: the one field held it once it ruled
        for kind, slot in sorted(slots.items(), key=lambda item: item[0] == "check_issue"):
            for name in list(slot):
                field = old_name(kind, name)
                if field:  # one field for two slots' (the suspicion): the one set
                    value = slot.pop(name)
                    if value is not None or field not in entry:
                        entry[field] = value
                elif field == "":
                    del slot[name]
        if any(slots.values()):
            entry["slots"] = {kind: slot for kind, slot in slots.items() if slot}
    state["schema"] = schema
    payload = (json.dumps(state, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    new = path_for(payload)
    (ws / old).unlink()
    (ws / new).write_bytes(payload)
    text = (ws / "results.json").read_text(encoding="utf-8")
    (ws / "results.json").write_text(text.replace(old, new), encoding="utf-8")


@pytest.mark.parametrize(
    ("example", "older", "schema", "old_field"),
    [
        ("faithfulness", _as_v2, ENGINE_STATE_V2, "second_draft_asked"),  # second-draft slots
        ("reconnect", _as_v3, ENGINE_STATE_V3, "reconnections"),  # the reconnect slot
        ("faithfulness", _as_v4, ENGINE_STATE_V4, "draft_rounds"),  # plan, draft, gate, prove
        ("reconnect", _as_v4, ENGINE_STATE_V4, "obligations"),
        ("reconnect", _as_v4, ENGINE_STATE_V4, "final"),  # the audit's slot
        ("faithfulness", _as_v4, ENGINE_STATE_V4, "suspicion"),  # the gate's, with a ruling
        ("faithfulness", _as_v5, ENGINE_STATE_V5, "counterexample"),  # the gate's
        ("sample-variance", _as_v5, ENGINE_STATE_V5, "suspicion"),  # the prover's
    ],
)
def test_an_older_state_loads_as_its_current_twin_and_migrates_to_the_same_files(
    example, older, schema, old_field, tmp_path, capsys
):
    reference, _ = reference_run(example)
    current, old = tmp_path / "current", tmp_path / "old"
    shutil.copytree(reference, current)
    shutil.copytree(reference, old)
    older(old)
    state = _json(old / _json(old / "results.json")["engine_state"])
    assert state["schema"] == schema
    assert any(old_field in entry for entry in state["work"].values())
    now, then = load_results_at(current / "results.json"), load_results_at(old / "results.json")
    assert any(r.work.slots for r in now.results)
    assert then.results == now.results and [r.work for r in then.results] == [
        r.work for r in now.results
    ]
    assert run(["migrate", str(old)]) == 0
    assert f"migrated {schema} -> {ENGINE_STATE_SCHEMA}" in capsys.readouterr().out
    assert (old / "results.json").read_bytes() == (current / "results.json").read_bytes()
    name = _json(old / "results.json")["engine_state"]
    assert (old / name).read_bytes() == (current / name).read_bytes()
    assert run(["validate", str(old)]) == run(["validate", str(current)])


def test_a_process_without_the_steps_reads_the_reconnect_slot_typed():
    """The validator never imports the engine: the reconnect slot is declared below it
    (`paperlint.records.slots`), so a real interpreter that reads the records without the
    steps gets the reconnection, not a slot kept as stored."""
    import subprocess
    import sys

    reference, _ = reference_run("reconnect")
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from paperlint.records.workspace import load_results_at\n"
        f"results = load_results_at(Path({str(reference / 'results.json')!r}))\n"
        "assert 'paperlint.engine.steps' not in sys.modules, 'the steps were imported'\n"
        "print(sorted((r.id, type(s).__name__)\n"
        "             for r in results.results for s in r.work.slots.values()))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    found = ast.literal_eval(done.stdout.strip())
    assert ("thm:sq-add", "Reconnections") in found and ("thm:sq-add", "Audited") in found
    # the plan, draft, gate and prove steps' slots are declared there too (engine-state/5)
    kinds = sorted({name for _, name in found})
    assert kinds == ["Audited", "Drafted", "Gated", "Planned", "Proving", "Reconnections"]


def test_a_fresh_process_resumes_a_killed_double_drafted_check_with_its_slots(tmp_path):
    """A `resume` reads the records before it imports the steps (the settled fast path);
    a run that goes on reads them again, so no step sees a slot as its default (a second
    draft asked twice). A real interpreter, not a fork of this one that knows the steps."""
    import subprocess
    import sys

    reference, _ = reference_run("faithfulness")
    events = [json.loads(line) for line in (reference / "events.jsonl").read_text().splitlines()]
    asked = [
        i
        for i, e in enumerate(events, 1)
        if e["type"] == "action_finished" and e["action"]["kind"] == "second_draft"
    ]
    ws = tmp_path / "ws"
    failpoint = f"after-event:{asked[0] + 1}"  # committed, the gate not yet asked
    assert run_cli_forked(check_argv("faithfulness", ws), PAPERLINT_FAILPOINT=failpoint) == 77
    assert any(r.work.slots for r in load_results_at(ws / "results.json").results)
    done = subprocess.run(
        [sys.executable, "-m", "paperlint", "resume", str(ws)], capture_output=True, text=True
    )
    assert done.returncode in (0, 1), done.stderr
    assert _json(ws / "results.json") == _json(reference / "results.json")

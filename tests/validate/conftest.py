"""Real example workspaces (replayed checks of the fixtures), made once per session, and the
forging helpers the adversarial tests use to edit copies of them the way a cheat would:
consistently, re-hashing what they touch, so that only first-principles rules can catch it."""

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from paperlint.engine import ports
from paperlint.validate.load import load_snapshot
from paperlint.validate.validator import validate

ROOT = Path(__file__).resolve().parents[2]


def _check(name: str, workdir: Path, *extra: str) -> Path:
    from paperlint.cli.root import run

    fixture = ROOT / "fixtures" / name
    argv = ["check", str(fixture / "paper.tex"), "--replay", str(fixture / "replay")]
    code = run([*argv, "--workdir", str(workdir), *extra])
    assert code in (1, 4), f"the replayed check of {name} exited {code}"
    return workdir


@pytest.fixture(scope="session")
def examples(tmp_path_factory):
    base = tmp_path_factory.mktemp("examples")
    v1 = base / "v1"  # written before the trusted checker: its files' own builds are evidence
    shutil.copytree(ROOT / "fixtures" / "workspaces" / "v1-sample-variance", v1)
    return {
        "sample-variance": _check("sample-variance", base / "sv"),
        "proportions": _check("proportions", base / "pr"),
        "budget": _check("sample-variance", base / "budget", "--max-calls", "6"),
        "v1-sample-variance": v1,
    }


@pytest.fixture
def copy_of(examples, tmp_path):
    def make(name: str) -> Path:
        target = tmp_path / name
        shutil.copytree(examples[name], target)
        return target

    return make


def recording_with(tmp_path, name: str, change) -> str:
    """A copy of the fixture's Lean recording with `change` applied to each checker entry."""
    source = ROOT / "fixtures" / name / "replay" / "lean.jsonl"
    lines = []
    for line in source.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        if entry.get("kind") == "checker" and entry["response"].get("record"):
            change(entry["response"]["record"])
        lines.append(json.dumps(entry, ensure_ascii=False))
    folder = tmp_path / "recording"
    folder.mkdir()
    (folder / "lean.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(folder)


def rules(workspace: Path) -> set[str]:
    return {f.rule.value for f in validate(load_snapshot(workspace))}


# --- forging helpers ---------------------------------------------------------------------------


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def load(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))


def dump(path: Path, data) -> None:
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")


def load_merged(ws: Path) -> dict:
    """results.json with each record's working state put back under `work` (as in
    `paperlint.results/1`: the steps' slots as the shared fields older state files held,
    `_LEGACY_SLOTS` and `flat_shared`), every agent output the state names
    read back from its file, so a forger's edit can reach either file."""
    data = load(ws / "results.json")
    state = load(ws / data["engine_state"]) if data.get("engine_state") else {"work": {}}
    for entry in data["results"]:
        entry["work"] = _inline(ws, entry["id"], state["work"].get(entry["id"], {}), state)
    return data


def _inline(ws: Path, result_id: str, raw: dict, state: dict) -> dict:
    import paperlint.engine.steps  # noqa: F401  (the registry: every step's slot type)
    from paperlint.records.state import _LEGACY_SLOTS, ENGINE_STATE_V1, workspace_reader
    from paperlint.records.work import ResultWork, slot_types
    from tests.workstate import flat_shared

    if state.get("schema") == ENGINE_STATE_V1:
        return raw
    read = workspace_reader(ws)
    work = _outputs(ws, result_id, ResultWork.REFS, dict(raw), read)
    slots = dict(work.pop("slots", {}))
    types = slot_types()
    work |= flat_shared(slots)  # the suspicion, the one counterexample field
    for kind, moved in _LEGACY_SLOTS.items():
        default = types[kind]().model_dump(mode="json")
        slot = {**default, **_outputs(ws, result_id, types[kind].REFS, slots.pop(kind, {}), read)}
        work.update({old: slot[new] for old, new in moved.items()})
    return {**work, "slots": slots} if slots else work


def _outputs(ws: Path, result_id: str, refs, stored: dict, read) -> dict:
    """`stored` with each reference of `refs` replaced by the output it names."""
    from paperlint.records.state import OutputRef, resolve_ref

    out = dict(stored)
    for field, kind in refs.items():
        value = out.get(field)
        names = value if isinstance(value, list) else [value] if value else []
        # a forger who edited the file first reads what it holds now (rehashed)
        now = [OutputRef(ref=r["ref"], sha256=sha(ws / r["ref"])) for r in names]
        outputs = [resolve_ref(result_id, kind, r, read).model_dump(mode="json") for r in now]
        if value:
            out[field] = outputs if isinstance(value, list) else outputs[0]
    return out


def dump_merged(ws: Path, data: dict) -> None:
    """Split what `load_merged` joined, as the engine writes it (`paperlint.engine-state/6`):
    an output still equal to its audit file is named by it; an edited one is written to a
    file of its own the state names, and the state file is renamed after its new content, as
    a careful forger would. A working state that is no longer valid is written as it is (its
    fields in their slots)."""
    from pydantic import ValidationError

    from paperlint.records.state import (
        ENGINE_STATE_SCHEMA,
        ENGINE_STATE_V1,
        _legacy,
        files_reader,
        parse_entry,
        stored_work,
        workspace_reader,
    )

    work, own = {}, {}
    for entry in data["results"]:
        if "work" not in entry:
            continue
        raw = entry.pop("work")
        slots = raw.pop("slots", {})  # slots of steps with no shared field before stay as stored
        try:
            # read as paperlint reads a /1 entry: each old field into the slot that owns it
            typed = parse_entry(entry["id"], raw, ENGINE_STATE_V1, files_reader({}))
        except (ValidationError, TypeError):
            kept = _legacy(raw)
        else:
            kept = stored_work(entry["id"], typed, workspace_reader(ws), own)
        every = {**kept.get("slots", {}), **slots}
        work[entry["id"]] = {**kept, "slots": dict(sorted(every.items()))} if every else kept
    for rel, payload in own.items():
        (ws / rel).write_bytes(payload)
    text = json.dumps({"schema": ENGINE_STATE_SCHEMA, "work": work}, indent=2) + "\n"
    name = f"engine/state-{hashlib.sha256(text.encode()).hexdigest()[:16]}.json"
    if data.get("engine_state"):
        (ws / data["engine_state"]).unlink()
    (ws / name).parent.mkdir(exist_ok=True)
    (ws / name).write_text(text, encoding="utf-8")
    dump(ws / "results.json", {**data, "engine_state": name})


def record(ws: Path, result_id: str) -> dict:
    return next(r for r in load_merged(ws)["results"] if r["id"] == result_id)


def edit_record(ws: Path, result_id: str, change) -> None:
    data = load_merged(ws)
    for entry in data["results"]:
        if entry["id"] == result_id:
            change(entry)
    dump_merged(ws, data)


def edit_text(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def rehash(ws: Path) -> None:
    """What a careful forger does last: make every recorded sha256 match the edited files."""
    for check in [*ws.glob("audits/*/final-check.json"), *ws.glob("lean/**/*.check.json")]:
        data = load(check)
        lean = (
            ws / record_lean_file(ws, check)
            if check.name == "final-check.json"
            else check.with_name(check.name.replace(".check.json", ".lean"))
        )
        if lean.is_file():
            data["file_sha256"] = sha(lean)
            dump(check, data)
    data = load(ws / "results.json")
    for entry in data["results"]:
        hashes = entry["evidence"]["hashes"]
        for rel in hashes:
            if (ws / rel).is_file():
                hashes[rel] = sha(ws / rel)
    dump(ws / "results.json", data)


def record_lean_file(ws: Path, final_check: Path) -> str:
    folder = final_check.parent.name
    for entry in load(ws / "results.json")["results"]:
        gate = entry["evidence"].get("gate") or ""
        if gate.startswith(f"audits/{folder}/"):
            return entry["evidence"].get("lean_file") or "missing"
    return "missing"


def restate(ws: Path, result_id: str, old: str, new: str) -> None:
    """Change a gated statement everywhere it is written, with fresh fingerprints."""
    entry = record(ws, result_id)
    gate_path = ws / entry["evidence"]["gate"]
    gate = load(gate_path)
    gate["statement"] = gate["statement"].replace(old, new)
    fingerprint = ports.fingerprint(gate["statement"])
    gate["statement_fingerprint"] = fingerprint
    dump(gate_path, gate)
    draft_path = gate_path.with_name(f"draft-{gate['round']}.json")
    draft = load(draft_path)
    draft["statement"] = gate["statement"]
    dump(draft_path, draft)

    def change(e):
        e["work"]["draft"]["statement"] = gate["statement"]
        e["work"]["fingerprint"] = fingerprint
        e["evidence"]["statement_fingerprint"] = fingerprint

    edit_record(ws, result_id, change)
    if entry["evidence"].get("lean_file"):
        edit_text(ws / entry["evidence"]["lean_file"], old, new)
    rehash(ws)

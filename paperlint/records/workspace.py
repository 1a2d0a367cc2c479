"""The check workspace (docs/design.md §3): paths, creation, and the kept copy of the paper."""

from __future__ import annotations

import json
import os
import shutil
import threading
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from paperlint.errors import InputError, StateError, typed
from paperlint.preflight.model import Inventory
from paperlint.records.layout import safe_name
from paperlint.records.migrate import read_json_object, upgrade
from paperlint.records.results import (
    RESULTS_SCHEMA,
    ResultRecord,
    Results,
    encode_record,
    encode_results,
)
from paperlint.records.state import (
    ENGINE_STATE_SCHEMA,
    OWN_FILE,
    STATE_DIR,
    EngineState,
    StateRefError,
    attach,
    encode_entries,
    encode_entry,
    is_state_path,
    matches_name,
    path_for,
    refs_of_work,
    resolved,
    state_schema,
    stored_work,
    workspace_reader,
)
from paperlint.records.work import ResultWork
from paperlint.store import EventLog, WorkspaceLock, remove_file, write_bytes_atomic


@dataclass(frozen=True)
class Workspace:
    root: Path

    @property
    def config(self) -> Path:
        return self.root / "paperlint.toml"

    @property
    def source(self) -> Path:
        return self.root / "source"

    @property
    def inventory(self) -> Path:
        return self.root / "inventory.json"

    @property
    def blueprint(self) -> Path:
        return self.root / "blueprint.json"

    @property
    def results(self) -> Path:
        return self.root / "results.json"

    @property
    def events_path(self) -> Path:
        return self.root / "events.jsonl"

    @property
    def audits(self) -> Path:
        return self.root / "audits"

    @property
    def lean(self) -> Path:
        return self.root / "lean"

    @property
    def report(self) -> Path:
        return self.root / "report"

    @property
    def snapshots(self) -> Path:
        return self.root / "snapshots"

    def events(self) -> EventLog:
        return EventLog(self.events_path)

    def audit_dir(self, result_id: str) -> Path:
        return self.audits / safe_name(result_id)

    def rel(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()

    @property
    def state_dir(self) -> Path:
        return self.root / STATE_DIR

    def load_results(self) -> Results:
        """The records with their working state; an older `results.json` is upgraded in
        memory (the next write, or `paperlint migrate`, stores the upgrade). Unreadable: the
        error names the newest snapshot to restore from."""
        try:
            return load_results_at(self.results)
        except StateError as exc:
            kept = sorted(self.snapshots.glob("event-*/results.json"))
            if not kept or exc.hint:
                raise
            folder = kept[-1].parent
            error = StateError(str(exc))
            copy = typed("cp", "-r", f"{folder}/.", f"{self.root}/")
            error.hint = (
                f"the records at the end of an earlier run are kept in {folder}: copy its "
                f"files back into {self.root} ({copy}), then `paperlint resume` continues from "
                "there"
            )
            raise error from exc

    def is_workspace(self) -> bool:
        return self.results.exists() and self.inventory.exists()


def default_workdir(paper: Path) -> Path:
    base = paper if paper.is_dir() else paper.with_suffix("")
    return base.parent / f"{base.name}.paperlint"


def open_workspace(folder: Path) -> Workspace:
    ws = Workspace(folder)
    if not ws.is_workspace():
        raise not_a_workspace(folder)
    return ws


def not_a_workspace(folder: Path) -> InputError:
    """The error for a folder given as a check's workspace that is none. When the check of a
    paper is nearby (the paper or its folder was given, or a folder inside the workspace) the
    hint names it; else it says how to make one."""
    found = _checks_near(folder)
    if len(found) == 1:
        hint = f"the check is in {found[0]}: pass that folder"
    elif found:
        hint = "the checks here are " + ", ".join(str(f) for f in found) + ": pass one of them"
    else:
        hint = "pass the folder `paperlint check PAPER` wrote (PAPER.paperlint/), or run it first"
    what = "not a paperlint workspace (no results.json and inventory.json)"
    return InputError(what if folder.exists() else "no such file or folder", path=folder, hint=hint)


def _checks_near(folder: Path) -> list[str]:
    """The workspaces a user may have meant by `folder`, as paths from the current folder: the
    one `check` writes for it (a paper or a paper's folder), those inside it (`ex/paper.paperlint`
    for `ex/`), and the one it lies in (`paper.paperlint/source`)."""
    here = folder.resolve()
    near = [default_workdir(here)]
    if here.is_dir():
        near += sorted(here.glob("*.paperlint"))
    near += [p for p in here.parents if Workspace(p).is_workspace()][:1]
    found = [p for p in dict.fromkeys(near) if p != here and Workspace(p).is_workspace()]
    return [os.path.relpath(p) for p in found]


def keep_sources(project_dir: Path, ws: Workspace, inventory: Inventory) -> None:
    """The kept copy of the paper as checked: exactly the files preflight read."""
    shutil.rmtree(ws.source, ignore_errors=True)
    base = project_dir.resolve()
    for entry in inventory.files:
        src = (base / entry.path).resolve()
        if not src.is_relative_to(base) or not src.is_file():
            continue
        dest = ws.source / entry.path
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dest)


def load_results_at(path: Path) -> Results:
    """`results.json` at `path` and the engine state it names (relative to its folder), each
    agent output read back from the `audits/` file the state names."""
    raw = read_json_object(path)
    try:
        upgraded = upgrade(raw, path=path)
        results = Results.model_validate(upgraded.results)
    except (ValueError, ValidationError) as exc:
        raise StateError(f"{path}: not a valid Results record: {exc}") from exc
    root = path.parent
    if upgraded.state is not None:
        state = _state(path, root, upgraded.state)
    elif results.engine_state is None:
        state = EngineState()  # nothing worked on yet
    else:
        state = _state(root / results.engine_state, root, _read_state(root, results))
    return attach(results, state)


def _read_state(folder: Path, results: Results) -> object:
    rel = results.engine_state
    if not is_state_path(rel):
        raise StateError(f"{folder / 'results.json'}: {rel!r} is not an engine state file name")
    assert rel is not None
    path = folder / rel
    try:
        data = path.read_bytes()
    except FileNotFoundError as exc:
        raise StateError(f"{path}: the engine state results.json names is missing") from exc
    if not matches_name(rel, data):
        raise StateError(f"{path}: the engine state does not match its name (edited?)")
    try:
        return json.loads(data)
    except ValueError as exc:
        raise StateError(f"{path}: the engine state is not JSON: {exc}") from exc


def _state(path: Path, root: Path, raw: object) -> EngineState:
    """The state read from `path`, every output it names read back from the workspace."""
    try:
        return resolved(raw, workspace_reader(root))
    except StateRefError as exc:
        raise StateError(
            f"{path}: {exc}. The state names the agent outputs it keeps by the audits/ file "
            "that holds each, with its sha256; that file must be the one the engine wrote. "
            "Put it back (a copy may be under snapshots/), undo an interrupted revision "
            "(`paperlint revise DIR --undo`), or start again with `paperlint check --fresh`"
        ) from exc
    except ValueError as exc:
        raise StateError(
            f"{path}: not a valid engine state record: {exc}. It is no state this version of "
            "paperlint wrote (edited?): put the engine's own back or start again with "
            "`paperlint check --fresh`"
        ) from exc


@dataclass
class _Written:
    """What this process last committed to one workspace, per result: the record and working
    state objects (records are never changed in place, so an unchanged result is the very
    same object in the next commit) with their encoded entries and the files they name."""

    records: dict[str, tuple[ResultRecord, str]]  # id -> (record, its results.json entry)
    works: dict[str, tuple[ResultWork, str, frozenset[str]]]  # id -> (work, entry, refs)
    state: Path  # the state file results.json names


_WRITTEN: dict[Path, _Written] = {}  # the least recently written first
_WRITTEN_LOCK = threading.Lock()
_REMEMBERED = 8  # workspaces (a batch, the MCP server and the tests write many in one process)


def write_results(ws: Workspace, results: Results) -> None:
    """The engine state first (a new file, named by its content) after the files of their
    own it names, then the `results.json` that names it, then the state files and files of
    their own nothing names any more. A crash at any instant leaves a `results.json` whose
    state file exists and names files that exist with the bytes it records.

    Linear in what changed: a result whose record and working state are the objects the last
    commit of this process wrote keeps its encoded entries, and its references are not read
    again (a file a reference names is never written again while a state naming it stands:
    `paperlint.records.state._candidates`). Only the two files are assembled anew."""
    root = ws.root.resolve()
    with _WRITTEN_LOCK:
        last = _WRITTEN.pop(root, None)
    read = workspace_reader(ws.root)
    records: dict[str, tuple[ResultRecord, str]] = {}
    works: dict[str, tuple[ResultWork, str, frozenset[str]]] = {}
    for record in results.results:
        kept = last.records.get(record.id) if last else None
        same = kept is not None and kept[0] is record
        records[record.id] = (record, kept[1]) if kept and same else (record, encode_record(record))
        had = last.works.get(record.id) if last else None
        if had is not None and had[0] is record.work:
            works[record.id] = had
            continue
        own: dict[str, bytes] = {}
        entry = stored_work(record.id, record.work, read, own)
        for rel, payload in own.items():
            path = ws.root / rel
            if not path.is_file() or path.read_bytes() != payload:
                write_bytes_atomic(path, payload)
        works[record.id] = (record.work, encode_entry(record.id, entry), refs_of_work(entry))
    data = encode_entries([entry for _, entry, _ in works.values()])
    rel = path_for(data)
    target = ws.root / rel
    fresh = last is None or last.state != target  # else this very file was written last time
    if fresh and (not target.is_file() or target.read_bytes() != data):
        write_bytes_atomic(target, data)
    head = results.model_copy(update={"engine_state": rel, "results": []})
    write_bytes_atomic(ws.results, encode_results(head, [e for _, e in records.values()]))
    for stale in ws.state_dir.glob("state-*.json"):  # the last one, and a crash's orphan
        if stale != target:
            remove_file(stale)
    if last is None:
        named = frozenset().union(*(refs for _, _, refs in works.values()))
        for path in ws.audits.glob("*/state-*.json"):
            if OWN_FILE.match(path.name) and ws.rel(path) not in named:
                remove_file(path)
    else:
        # A reference names a file in its own result's folder only (`check_ref`): what a
        # result no longer names, no other result names.
        for rid, (work, _, refs) in last.works.items():
            now = works.get(rid)
            if now is not None and now[0] is work:
                continue
            for gone in sorted(refs - (now[2] if now else frozenset())):
                if OWN_FILE.match(gone.rsplit("/", 1)[-1]):
                    remove_file(ws.root / gone)
    with _WRITTEN_LOCK:
        _WRITTEN[root] = _Written(records=records, works=works, state=target)
        while len(_WRITTEN) > _REMEMBERED:
            del _WRITTEN[next(iter(_WRITTEN))]


def stored_schemas(ws: Workspace) -> tuple[str, str | None]:
    """The schema of `results.json` and of the state file it names (None: none named)."""
    raw = read_json_object(ws.results)
    schema = str(raw.get("schema"))
    if schema != RESULTS_SCHEMA:
        return schema, None
    results = Results.model_validate(raw)
    if results.engine_state is None:
        return schema, None
    try:
        return schema, state_schema(_read_state(ws.root, results))
    except ValueError as exc:
        raise StateError(f"{ws.root / results.engine_state}: {exc}") from exc


def migrate_workspace(folder: Path) -> str | None:
    """Store an older workspace in the current schemas; the oldest schema it had, or None when
    it was current already. `results.json` and the state file change shape (and an output
    the state kept that no audit file holds gets a file of its own); nothing else changes."""
    ws = open_workspace(folder)
    with WorkspaceLock(ws.root):
        schema, state = stored_schemas(ws)
        if schema == RESULTS_SCHEMA and state in (None, ENGINE_STATE_SCHEMA):
            return None
        write_results(ws, ws.load_results())
    return schema if schema != RESULTS_SCHEMA else state

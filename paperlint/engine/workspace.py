"""The check workspace (design §3): paths, creation, and the kept copy of the paper."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from paperlint.errors import StateError
from paperlint.records import EventLog, WorkspaceLock, write_record
from paperlint.records.layout import safe_name
from paperlint.records.migrate import read_json_object, upgrade
from paperlint.records.results import RESULTS_SCHEMA, Results
from paperlint.records.state import (
    STATE_DIR,
    EngineState,
    attach,
    encode,
    is_state_path,
    matches_name,
    path_for,
    state_of,
)
from paperlint.records.store import remove_file, write_bytes_atomic

__all__ = ["safe_name"]  # re-exported for revise; defined in paperlint.records.layout


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
        memory (the next write, or `paperlint migrate`, stores the upgrade)."""
        return load_results_at(self.results)

    def is_workspace(self) -> bool:
        return self.results.exists() and self.inventory.exists()


def default_workdir(paper: Path) -> Path:
    base = paper if paper.is_dir() else paper.with_suffix("")
    return base.parent / f"{base.name}.paperlint"


def open_workspace(folder: Path) -> Workspace:
    ws = Workspace(folder)
    if not ws.is_workspace():
        raise StateError(
            f"{folder}: not a paperlint workspace (no results.json/inventory.json); "
            "run `paperlint check PAPER` first"
        )
    return ws


def load_results_at(path: Path) -> Results:
    """`results.json` at `path` and the engine state it names (relative to its folder)."""
    raw = read_json_object(path)
    try:
        upgraded = upgrade(raw)
        results = Results.model_validate(upgraded.results)
    except (ValueError, ValidationError) as exc:
        raise StateError(f"{path}: not a valid Results record: {exc}") from exc
    if upgraded.state is not None:
        state = _state(path, upgraded.state)
    elif results.engine_state is None:
        state = EngineState()  # nothing worked on yet
    else:
        state = _read_state(path.parent, results.engine_state)
    return attach(results, state)


def _read_state(folder: Path, rel: str) -> EngineState:
    if not is_state_path(rel):
        raise StateError(f"{folder / 'results.json'}: {rel!r} is not an engine state file name")
    path = folder / rel
    try:
        data = path.read_bytes()
    except FileNotFoundError as exc:
        raise StateError(f"{path}: the engine state results.json names is missing") from exc
    if not matches_name(rel, data):
        raise StateError(f"{path}: the engine state does not match its name (edited?)")
    try:
        raw = json.loads(data)
    except ValueError as exc:
        raise StateError(f"{path}: the engine state is not JSON: {exc}") from exc
    return _state(path, raw)


def _state(path: Path, raw: object) -> EngineState:
    try:
        return EngineState.model_validate(raw)
    except ValidationError as exc:
        raise StateError(f"{path}: not a valid engine state record: {exc}") from exc


def write_results(ws: Workspace, results: Results) -> None:
    """The engine state first (a new file, named by its content), then the `results.json`
    that names it, then the state files nothing names any more. A crash at any instant
    leaves a `results.json` whose state file exists."""
    data = encode(state_of(results))
    rel = path_for(data)
    target = ws.root / rel
    if not target.is_file() or target.read_bytes() != data:
        write_bytes_atomic(target, data)
    write_record(ws.results, results.model_copy(update={"engine_state": rel}))
    for stale in ws.state_dir.glob("state-*.json"):
        if stale != target:
            remove_file(stale)


def migrate_workspace(folder: Path) -> str | None:
    """Store an older workspace in the current schema; the schema it had, or None when it was
    current already. Only `results.json` changes shape; nothing else is rewritten."""
    ws = open_workspace(folder)
    with WorkspaceLock(ws.root):
        schema = read_json_object(ws.results).get("schema")
        if schema == RESULTS_SCHEMA:
            return None
        write_results(ws, ws.load_results())
    return str(schema)

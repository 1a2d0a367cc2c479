"""The one I/O edge of the validator: read a workspace folder into a `Snapshot`."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from paperlint.errors import InputError
from paperlint.records.migrate import upgrade
from paperlint.records.results import ResultRecord, Results
from paperlint.records.state import (
    StateRefError,
    files_reader,
    is_state_path,
    matches_name,
    parse_entry,
    state_schema,
)
from paperlint.records.work import ResultWork
from paperlint.records.workspace import not_a_workspace
from paperlint.validate.model import Check, Finding, Snapshot

# Rendered outputs and checkpoints are not evidence; leaving them out keeps the read small.
SKIPPED_TOP = frozenset({"report", "snapshots"})
MAX_TOTAL_BYTES = 256 * 1024 * 1024


def is_workspace(folder: Path) -> bool:
    return (folder / "results.json").is_file() and (folder / "inventory.json").is_file()


def load_snapshot(folder: Path) -> Snapshot:
    """Read every evidence file under `folder`; raise InputError if it is no workspace."""
    if not folder.is_dir() or not is_workspace(folder):
        raise not_a_workspace(folder)
    files = _read_files(folder)
    records, errors = _parse_records(files.get("results.json", b""), files)
    meta = _parse_meta(files.get("results.json", b""))
    source_inventory, source_error = rederive_inventory(folder, files.get("inventory.json"))
    return Snapshot(
        root=str(folder),
        files=files,
        records=tuple(records),
        record_errors=tuple(errors),
        events=_parse_events(files.get("events.jsonl")),
        config=_parse_config(files.get("paperlint.toml")),
        meta=meta,
        source_inventory=source_inventory,
        source_inventory_error=source_error,
    )


def rederive_inventory(
    folder: Path, recorded: bytes | None
) -> tuple[dict[str, Any] | None, str | None]:
    """Preflight re-run on the kept `source/`, so no result can be dropped from the records.

    Only the recorded `root` is read from the workspace, and it must stay inside `source/`.
    """
    from paperlint.preflight.inventory import build_inventory

    try:
        root = json.loads((recorded or b"{}").decode("utf-8")).get("root")
    except (ValueError, AttributeError):
        return None, "inventory.json is not JSON"
    source = (folder / "source").resolve()
    if not isinstance(root, str) or not root or not source.is_dir():
        return None, "no kept source/ or no root in inventory.json"
    main = (source / root).resolve()
    if not main.is_relative_to(source) or not main.is_file():
        return None, f"the root {root!r} is not a file inside source/"
    try:
        pdf = main.suffix.lower() == ".pdf"
        inventory = build_inventory(main) if pdf else build_inventory(source, root=root)
    except Exception as exc:  # preflight's own boundary: say why, never crash validate
        return None, f"preflight on source/ failed: {exc}"
    return inventory.model_dump(mode="json", by_alias=True), None


def _read_files(folder: Path) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    total = 0
    base = folder.resolve()
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if rel.parts[0] in SKIPPED_TOP or path.is_symlink() or not path.is_file():
            continue  # a symlink could point outside the workspace: never evidence
        if not path.resolve().is_relative_to(base):
            continue
        data = path.read_bytes()
        total += len(data)
        if total > MAX_TOTAL_BYTES:
            raise InputError("the workspace holds more than 256 MB of files", path=folder)
        files[rel.as_posix()] = data
    return files


def _parse_records(
    data: bytes, files: dict[str, bytes]
) -> tuple[list[ResultRecord], list[Finding]]:
    """Each record validated on its own, so one bad record does not hide the others; each
    carries the working state the engine left for it (read, never trusted: see
    `paperlint.records.state`). An older `results.json` is upgraded in memory first."""
    try:
        raw = json.loads(data.decode("utf-8"))
    except ValueError as exc:
        return [], [Finding("results.json", Check.RESULTS_SCHEMA, f"not JSON: {exc}")]
    if not isinstance(raw, dict):
        return [], [Finding("results.json", Check.RESULTS_SCHEMA, "not a JSON object")]
    try:
        upgraded = upgrade(raw)
    except ValueError as exc:
        return [], [Finding("results.json", Check.RESULTS_SCHEMA, str(exc))]
    raw = upgraded.results
    try:
        Results.model_validate({**raw, "results": []})  # the envelope: no unknown top-level key
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        message = f"the envelope is invalid at {where}: {first['msg']}"
        return [], [Finding("results.json", Check.RESULTS_SCHEMA, message)]
    entries = raw.get("results")
    if not isinstance(entries, list):
        return [], [Finding("results.json", Check.RESULTS_SCHEMA, "`results` is not a list")]
    records: list[ResultRecord] = []
    errors: list[Finding] = []
    for index, entry in enumerate(entries):
        try:
            records.append(ResultRecord.model_validate(entry))
        except ValidationError as exc:
            rid = entry.get("id") if isinstance(entry, dict) else None
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            message = f"record {index} ({rid}) is invalid at {where}: {first['msg']}"
            errors.append(Finding("results.json", Check.RESULTS_SCHEMA, message, result=rid))
    ids = [r.id for r in records]
    for rid in sorted({i for i in ids if ids.count(i) > 1}):
        errors.append(
            Finding("results.json", Check.RESULTS_SCHEMA, f"id {rid} appears twice", result=rid)
        )
    state, state_errors = _parse_state(upgraded.state, raw.get("engine_state"), files)
    records = [r.with_work(state.get(r.id, ResultWork())) for r in records]
    return records, [*errors, *state_errors]


def _parse_state(
    embedded: dict[str, Any] | None, path: object, files: dict[str, bytes]
) -> tuple[dict[str, ResultWork], list[Finding]]:
    """The engine state `results.json` names (or, for an old one, held), entry by entry, each
    agent output read back from the `audits/` file it names (allowlisted path, sha256, output
    model; `paperlint.records.state`). Any problem leaves the entries concerned empty, which
    can only fail a verdict; the rules then compare what was read with the evidence files."""
    if embedded is None and path is None:
        return {}, []
    where = "results.json"
    raw: Any = embedded
    if embedded is None:
        data = files.get(path) if isinstance(path, str) else None
        if not is_state_path(path) or data is None:
            message = f"the engine state {path!r} is not a state file of this workspace"
            return {}, [Finding(where, Check.ENGINE_STATE, message)]
        assert isinstance(path, str)
        where = path
        if not matches_name(path, data):
            return {}, [Finding(where, Check.ENGINE_STATE, "the file does not match its name")]
        try:
            raw = json.loads(data.decode("utf-8"))
        except ValueError as exc:
            return {}, [Finding(where, Check.ENGINE_STATE, f"not JSON: {exc}")]
    try:
        schema = state_schema(raw)
    except ValueError as exc:
        return {}, [Finding(where, Check.ENGINE_STATE, str(exc))]
    state: dict[str, ResultWork] = {}
    errors: list[Finding] = []
    read = files_reader(files)
    for rid, entry in raw["work"].items():
        try:
            state[rid] = parse_entry(rid, entry, schema, read)
        except ValidationError as exc:
            first = exc.errors()[0]
            at = ".".join(str(p) for p in first["loc"])
            message = f"the working state of {rid} is invalid at {at}: {first['msg']}"
            errors.append(Finding(where, Check.ENGINE_STATE, message, result=rid))
        except StateRefError as exc:
            message = f"the working state of {rid} names an output it cannot have: {exc}"
            errors.append(Finding(where, Check.ENGINE_STATE, message, result=rid))
    return state, errors


def _parse_meta(data: bytes) -> dict[str, Any]:
    try:
        raw = json.loads(data.decode("utf-8"))
    except ValueError:
        return {}
    return {k: v for k, v in raw.items() if k != "results"} if isinstance(raw, dict) else {}


def _parse_events(data: bytes | None) -> tuple[dict[str, Any], ...] | None:
    if data is None:
        return None
    events: list[dict[str, Any]] = []
    for line in data.decode("utf-8", errors="replace").splitlines():
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except ValueError:
            continue  # a torn last line is ignored on read, as the event log does
        if isinstance(event, dict):
            events.append(event)
    return tuple(events)


def _parse_config(data: bytes | None) -> dict[str, Any]:
    if data is None:
        return {}
    try:
        return tomllib.loads(data.decode("utf-8", errors="replace"))
    except tomllib.TOMLDecodeError:
        return {}

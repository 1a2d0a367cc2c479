"""Older `results.json` versions, upgraded in memory to the current one (pure, on raw JSON).

`paperlint.results/1` embedded the engine's working state in every record (`work`); from
`paperlint.results/2` it lives in its own file (`paperlint.records.state`), and what it held is
an `paperlint.engine-state/1` record (agent outputs inline; the state module reads it and
writes `/2`, which names each output's audit file instead). Readers upgrade on load, so an old
workspace still resumes, validates, replays and reports; `paperlint migrate WORKDIR` writes
the upgrade to disk.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from pydantic import ValidationError

from paperlint.errors import StateError, refuse_newer_schema
from paperlint.records.results import RESULTS_SCHEMA, Results
from paperlint.records.state import ENGINE_STATE_V1

RESULTS_V1: Final = "paperlint.results/1"
KNOWN: Final = (RESULTS_V1, RESULTS_SCHEMA)


@dataclass(frozen=True)
class Upgraded:
    results: dict[str, Any]  # the current schema's shape (not yet validated)
    state: dict[str, Any] | None  # an `engine-state` record taken out of it; None if none was
    source_schema: str


def upgrade(raw: dict[str, Any], *, path: Path | None = None) -> Upgraded:
    """`raw` in the current shape; InputError for a newer paperlint's schema (upgrade),
    ValueError for another this version does not know."""
    schema = raw.get("schema")
    refuse_newer_schema(schema, KNOWN, path=path)
    if schema == RESULTS_SCHEMA:
        return Upgraded(raw, None, RESULTS_SCHEMA)
    if schema != RESULTS_V1:
        raise ValueError(f"the schema is not one of {', '.join(KNOWN)} (it is {schema!r})")
    entries = raw.get("results")
    work: dict[str, Any] = {}
    if isinstance(entries, list):
        entries = [_split(entry, work) for entry in entries]
    results = {**raw, "schema": RESULTS_SCHEMA, "results": entries}
    results.pop("engine_state", None)  # v1 had no such field: nothing to point at yet
    return Upgraded(results, {"schema": ENGINE_STATE_V1, "work": work}, RESULTS_V1)


def _split(entry: Any, work: dict[str, Any]) -> Any:
    if not isinstance(entry, dict) or "work" not in entry:
        return entry
    rest = {k: v for k, v in entry.items() if k != "work"}
    if isinstance(entry.get("id"), str):
        work[entry["id"]] = entry["work"]
    return rest


def read_json_object(path: Path) -> dict[str, Any]:
    """The JSON object in `path`; StateError when it is missing, not JSON or not an object."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise StateError(f"{path}: record not found") from exc
    except ValueError as exc:
        raise StateError(f"{path}: not JSON: {exc}") from exc
    if not isinstance(raw, dict):
        raise StateError(f"{path}: not a JSON object")
    return raw


def read_results(path: Path) -> Results:
    """The contract record at `path`, of any known version (the working state is not read)."""
    try:
        return Results.model_validate(upgrade(read_json_object(path), path=path).results)
    except (ValueError, ValidationError) as exc:
        raise StateError(f"{path}: not a valid Results record: {exc}") from exc

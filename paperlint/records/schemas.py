"""JSON Schemas of the records on disk, generated from the pydantic models.

`schemas/*.json` are committed; `tests/test_schemas.py` fails when a model drifts from them, so
a contract change is always a visible diff (and needs a schema version bump and a note). The
engine's working state (`engine/state-<sha>.json`) is not part of the contract, but its file is
versioned too (`paperlint.engine-state/N`), so its shape is committed beside the contract's; it
names the agent outputs it keeps by their `audits/` files, so no prompt's output model is in it.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel


def contract_models() -> dict[str, type[BaseModel]]:
    from paperlint.blueprint.model import Blueprint
    from paperlint.preflight.model import Inventory
    from paperlint.records.results import Results

    return {"inventory": Inventory, "blueprint": Blueprint, "results": Results}


def state_models() -> dict[str, type[BaseModel]]:
    from paperlint.records.state import StoredState

    return {"engine-state": StoredState}


def committed_models() -> dict[str, type[BaseModel]]:
    """Every record whose schema is committed under `schemas/`, by file stem."""
    return {**contract_models(), **state_models()}


def render_schema(model: type[BaseModel]) -> str:
    schema = model.model_json_schema(by_alias=True, mode="serialization")
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_schemas(folder: Path) -> list[Path]:
    from paperlint.store import write_text_atomic

    written = []
    for name, model in committed_models().items():
        path = folder / f"{name}.schema.json"
        write_text_atomic(path, render_schema(model))
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write_schemas(Path(__file__).resolve().parents[2] / "schemas"):
        print(path)

"""The engine's working state on disk (`paperlint.engine-state/1`), apart from the contract.

`results.json` holds verdicts and their evidence; what the engine needs to resume (the drafts,
gate answers, obligations, rulings it has seen: agent outputs, whose shapes follow the prompts)
lives in `engine/state-<sha256[:16]>.json`, named by its own content and by
`Results.engine_state`. The file is written before the `results.json` that names it and old
ones are removed after, so a crash between the two writes leaves the old pair intact (an
orphan state file is harmless and removed by the next write).

The validator reads this file too, but never for a verdict: each copy it finds here must equal
the agent output under `audits/`, and a missing or altered file only ever fails a verdict.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from paperlint.records.results import Results
from paperlint.records.work import ResultWork

ENGINE_STATE_SCHEMA: Final = "paperlint.engine-state/1"
STATE_DIR: Final = "engine"
# The only names a state file may have: a workspace path from results.json is untrusted.
STATE_PATH: Final = re.compile(r"^engine/state-[0-9a-f]{16}\.json$")


class EngineState(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    schema_: Literal["paperlint.engine-state/1"] = Field(
        default=ENGINE_STATE_SCHEMA, alias="schema"
    )
    work: dict[str, ResultWork] = Field(default_factory=dict)  # result id -> working state


def state_of(results: Results) -> EngineState:
    return EngineState(work={r.id: r.work for r in results.results})


def encode(state: EngineState) -> bytes:
    data = state.model_dump(mode="json", by_alias=True)
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def path_for(data: bytes) -> str:
    """The workspace path of a state file with these bytes."""
    return f"{STATE_DIR}/state-{hashlib.sha256(data).hexdigest()[:16]}.json"


def is_state_path(path: object) -> bool:
    return isinstance(path, str) and STATE_PATH.match(path) is not None


def matches_name(path: str, data: bytes) -> bool:
    return path_for(data) == path


def attach(results: Results, state: EngineState) -> Results:
    """The records, each carrying its working state (a record the state lacks gets none)."""
    records = [r.with_work(state.work.get(r.id, ResultWork())) for r in results.results]
    return results.model_copy(update={"results": records})

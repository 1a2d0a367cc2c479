"""The `[run]` table of a workspace's `paperlint.toml`: how the check was run. Decoded here and
nowhere else (the run spec, `status`, `validate`, the report and `revise` all read it so).

    [run]
    schema = "paperlint.run-spec/2"        # absent: a table written before it was versioned (/1)
    paperlint_version = "0.1.0"
    paper = "/abs/paper.tex"          # the PAPER the check was given
    replay_dir = ""                   # --replay (TOML has no null: "" is none)
    record_dir = ""                   # --record
    lean_replay_dir = ""              # --lean-replay
    allow_unpriced = false
    lean_project = "/abs/lean-project"  # /2: the Lake project the run used, resolved

A `/1` table has no `lean_project`: the project is then the config's `[lean] project_dir`, or the
bundled one. A table of a newer schema is refused, never guessed.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, Final

from pydantic import BaseModel, ConfigDict, ValidationError

from paperlint.errors import InputError, refuse_newer_schema

RUN_SCHEMA: Final = "paperlint.run-spec/2"
RUN_SCHEMAS: Final = ("paperlint.run-spec/1", RUN_SCHEMA)


class RunTable(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    schema_: str = RUN_SCHEMA
    paperlint_version: str = ""
    paper: str = ""
    replay_dir: str = ""
    record_dir: str = ""
    lean_replay_dir: str = ""
    allow_unpriced: bool = False
    lean_project: str = ""

    @property
    def replay(self) -> Path | None:
        return _path(self.replay_dir)

    @property
    def record(self) -> Path | None:
        return _path(self.record_dir)

    @property
    def lean_replay(self) -> Path | None:
        return _path(self.lean_replay_dir)

    @property
    def project(self) -> Path | None:
        """The Lake project the run used (None: a `/1` table, which did not say)."""
        return _path(self.lean_project)

    def table(self) -> dict[str, Any]:
        """The TOML table, as `config.dump_config_toml` writes it."""
        data = self.model_dump()
        return {"schema": data.pop("schema_"), **data}


def _path(text: str) -> Path | None:
    return Path(text) if text else None


def decode_run(raw: object) -> RunTable:
    """The `[run]` table from its TOML value; InputError when it is none this version wrote."""
    if not isinstance(raw, dict):
        raise InputError("the workspace's paperlint.toml has no [run] table")
    data = {("schema_" if key == "schema" else key): value for key, value in raw.items()}
    data.setdefault("schema_", RUN_SCHEMAS[0])
    if data["schema_"] not in RUN_SCHEMAS:
        refuse_newer_schema(data["schema_"], RUN_SCHEMAS, path=None)
        raise InputError(
            f"the [run] table is {data['schema_']!r}, which no paperlint wrote",
            hint="start the check again with --fresh",
        )
    try:
        return RunTable.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]).replace("schema_", "schema")
        raise InputError(f"the [run] table is unreadable: {where}: {first['msg']}") from None


def run_of(config: object) -> RunTable | None:
    """The `[run]` table of a parsed `paperlint.toml`, or None when it has none this version
    can read (`validate` reads a workspace that may have been tampered with)."""
    raw = config.get("run") if isinstance(config, dict) else None
    try:
        return decode_run(raw)
    except InputError:
        return None


def read_run(config_file: Path) -> RunTable:
    """The `[run]` table of a workspace's `paperlint.toml`."""
    try:
        data = tomllib.loads(config_file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise InputError(f"cannot read the run's config: {exc}", path=config_file) from None
    return decode_run(data.get("run"))

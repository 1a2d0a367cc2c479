"""`paperlint migrate WORKDIR`: store a workspace written by an older paperlint in the current
schema (every command also reads old workspaces, upgrading them in memory)."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from paperlint.cli.options import FORMAT, VERBOSE
from paperlint.cli.plain import Format
from paperlint.cli.root import app


@app.command("migrate")
def migrate(
    workdir: Path = typer.Argument(..., help="The check workspace, e.g. paper.paperlint/."),
    fmt: Format = FORMAT,
    verbose: bool = VERBOSE,
) -> int:
    """Rewrite an older workspace's records in the current schema; nothing else changes."""
    import paperlint.engine.steps  # noqa: F401  (the registry teaches the codec the steps' slots)
    from paperlint.records.results import RESULTS_SCHEMA
    from paperlint.records.state import ENGINE_STATE_SCHEMA
    from paperlint.records.workspace import migrate_workspace

    current = f"{RESULTS_SCHEMA} + {ENGINE_STATE_SCHEMA}"
    old = migrate_workspace(workdir)
    if fmt == Format.JSON:
        payload = {"workspace": str(workdir), "migrated_from": old, "schema": current}
        typer.echo(json.dumps(payload, indent=2))
        return 0
    if old is None:
        typer.echo(f"{workdir}: already {current}; nothing to do")
    elif old.startswith("paperlint.engine-state/"):
        typer.echo(f"{workdir}: migrated {old} -> {ENGINE_STATE_SCHEMA}")
    else:
        typer.echo(f"{workdir}: migrated {old} -> {current}")
    return 0

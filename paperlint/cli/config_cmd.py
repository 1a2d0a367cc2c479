"""`paperlint config [PAPER]`: which config files a check of PAPER reads, and every effective
value with its origin (a file, the command line, or the default). Reads only."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import typer

from paperlint.cli.options import FORMAT, VERBOSE
from paperlint.cli.plain import Format
from paperlint.cli.root import app


@app.command("config")
def config(
    paper: Path = typer.Argument(
        Path("."), help="The paper (a .tex file or its folder) whose config to show."
    ),
    explicit: Path | None = typer.Option(None, "--config", help="A paperlint.toml to use."),
    fmt: Format = FORMAT,
    verbose: bool = VERBOSE,
) -> int:
    """Print the config files read for PAPER and each effective value with its origin."""
    from paperlint.config import load_config, user_config_file

    if not paper.exists():
        from paperlint.errors import InputError

        raise InputError("no such file or folder", path=paper, hint="pass the paper or its folder")
    loaded = load_config(explicit, start=paper)
    values = dict(_leaves(loaded.config.model_dump(mode="json")))
    rows = [(key, value, loaded.origin(key)) for key, value in values.items()]
    user = user_config_file()
    files = [{"path": str(p), "kind": _kind(p, explicit, user)} for p in loaded.files]
    if fmt == Format.JSON:
        payload = {
            "files": files,
            "user_config": str(user),
            "values": [{"key": k, "value": v, "origin": o} for k, v, o in rows],
        }
        typer.echo(json.dumps(payload, indent=2))
        return 0
    if files:
        typer.echo("files read (later ones win):")
        for entry in files:
            typer.echo(f"  {entry['path']} ({entry['kind']})")
    else:
        typer.echo(f"files read: none (no paperlint.toml found from {paper}; user file {user})")
    for key, value, origin in rows:
        typer.echo(f"{key} = {json.dumps(value, ensure_ascii=False)}  # {origin}")
    return 0


def _kind(path: Path, explicit: Path | None, user: Path) -> str:
    if explicit is not None:
        return "--config"
    return "user" if path == user else "project"


def _leaves(table: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Dotted keys and values; an empty table is one value (`roles = {}`)."""
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping) and value:
            yield from _leaves(value, f"{name}.")
        else:
            yield name, value

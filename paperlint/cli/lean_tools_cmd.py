"""`paperlint lean search` and `paperlint lean goals`: the prover's tools, for a person.

Exit codes: 0 when something was found (hits, or goals shown), 4 when nothing was (no hit),
2 on a usage or input error (no index, no such file, Lean not set up for `goals`).
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from paperlint.cli.options import FORMAT, VERBOSE
from paperlint.cli.plain import Format
from paperlint.cli.root import lean_app
from paperlint.errors import InputError
from paperlint.exitcodes import ExitCode


@lean_app.command("search")
def search(
    query: str = typer.Argument(..., help="Words, a name fragment or a type shape."),
    limit: int = typer.Option(8, "--limit", min=1, max=50, help="How many hits."),
    index: Path | None = typer.Option(
        None, "--index", help="An extraction file (default: the one `paperlint setup` wrote)."
    ),
    replay: Path | None = typer.Option(
        None, "--replay", help="Confirm hits from recorded Lean answers (DIR/lean.jsonl)."
    ),
    no_lean: bool = typer.Option(False, "--no-lean", help="Do not confirm hits with #check."),
    fmt: Format = FORMAT,
    verbose: bool = VERBOSE,
) -> None:
    """Search the pinned environment's declarations; hits are confirmed with #check."""
    from paperlint.lean.extraction import index_file
    from paperlint.lean.pins import locate
    from paperlint.prover import commands

    paths = locate()
    probe = None if no_lean else commands.open_probe(paths, replay)
    report = commands.search(
        query,
        index_path=index or index_file(paths),
        probe=probe,
        header="import Mathlib",
        limit=limit,
    )
    if fmt == Format.JSON:
        payload = {"hits": list(report.lines), "confirmed": report.confirmed, "note": report.note}
        typer.echo(json.dumps(payload, indent=2, ensure_ascii=False))
        raise typer.Exit(ExitCode.VERIFIED if report.lines else ExitCode.UNFINISHED)
    if report.note:
        typer.echo(f"-- {report.note}")
    for line in report.lines:
        typer.echo(line)
    raise typer.Exit(ExitCode.VERIFIED if report.lines else ExitCode.UNFINISHED)


@lean_app.command("goals")
def goals(
    file: Path = typer.Argument(..., help="A Lean file with `sorry` or `?_` holes."),
    replay: Path | None = typer.Option(
        None, "--replay", help="Answer from recorded Lean answers (DIR/lean.jsonl)."
    ),
    fmt: Format = FORMAT,
    verbose: bool = VERBOSE,
) -> None:
    """Show the goal at every `sorry` and `?_` of a Lean file."""
    from paperlint.lean.pins import locate
    from paperlint.prover import commands

    if not file.is_file():
        raise InputError("no such Lean file", path=file, hint="check the path")
    text = commands.goals(file, probe=commands.open_probe(locate(), replay))
    if fmt == Format.JSON:
        typer.echo(json.dumps({"file": str(file), "goals": text}, indent=2, ensure_ascii=False))
        return
    typer.echo(text)

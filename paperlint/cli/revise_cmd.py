"""`paperlint revise DIR NEW_PAPER`: re-check only what changed in a new version (issue #8)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from paperlint.cli.boundary import crash_dir
from paperlint.cli.options import FORMAT, VERBOSE
from paperlint.cli.plain import Format, require_paper
from paperlint.cli.root import app
from paperlint.errors import InputError, typed


@app.command("revise")
def revise(
    workdir: Path = typer.Argument(..., help="The check folder of the previous version."),
    paper: Path | None = typer.Argument(None, help="The new version: a .tex file or folder."),
    dry_run: bool = typer.Option(
        False, "--dry-run", help="Say what would be reset; write nothing."
    ),
    fmt: Format = FORMAT,
    root: str | None = typer.Option(None, "--root", help="The main .tex file of a folder."),
    replay: Path | None = typer.Option(
        None, "--replay", help="The replay the following `resume` uses (offline)."
    ),
    undo: bool = typer.Option(False, "--undo", help="Restore the workspace as it was before."),
    verbose: bool = VERBOSE,
) -> int:
    """Reset the results a new version changed; then `paperlint resume DIR` re-checks them."""
    from paperlint.revise import revise as engine
    from paperlint.revise.snapshot import undo_revision

    crash_dir.append(workdir)
    if undo:
        restored = undo_revision(workdir)
        typer.echo(f"restored {workdir} from {restored}")
        return 0
    if paper is None:
        raise InputError("missing NEW_PAPER", hint="give the new version's .tex file, or --undo")
    require_paper(paper)
    if dry_run:
        outcome = engine.preview_revision(workdir, paper, root=root)
    else:
        request = engine.ReviseRequest(workdir=workdir, paper=paper, root=root, replay=replay)
        outcome = engine.revise(request)
    if fmt == "json":
        typer.echo(json.dumps(outcome.plan, indent=2, ensure_ascii=False))
    else:
        _print_text(outcome.plan)
        if outcome.snapshot is not None:
            resume = typed("paperlint", "resume", workdir)
            typer.echo(f"snapshot: {outcome.snapshot}; continue with {resume}")
    return 0


def _print_text(plan: dict[str, Any]) -> None:
    for reset in plan["reset"]:
        typer.echo(f"{reset['action']:<9} {reset['id']}: {reset['why']}")
    if not plan["reset"]:
        typer.echo("nothing to reset")
    for r in plan["renumbered"]:
        typer.echo(f"renumbered {r['id']}: {r['from']} -> {r['to']}")
    for what in ("added", "removed", "moved"):
        for rid in plan[what]:
            typer.echo(f"{what} {rid}")
    cost = plan["estimate"]
    usd = "unknown" if cost["cost_usd"] is None else f"${cost['cost_usd']:.4f}"
    extra = f"; not estimated: {', '.join(cost['not_estimated'])}" if cost["not_estimated"] else ""
    typer.echo(
        f"estimate: {cost['model_calls']} model call(s), {usd} (previous run's costs){extra}"
    )

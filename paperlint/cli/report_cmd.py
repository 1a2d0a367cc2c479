"""`paperlint report DIR`: render the author report from a check workspace's records."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from paperlint.cli.options import VERBOSE
from paperlint.cli.root import app
from paperlint.domain import ReportFormat
from paperlint.errors import InputError

if TYPE_CHECKING:
    from paperlint.reports.load import StaleMarks

FORMATS = tuple(f.value for f in ReportFormat)


@app.command("report")
def report(
    workspace: Path = typer.Argument(..., help="The check workspace, e.g. paper.paperlint/."),
    # A plain string checked here rather than an Enum: the error then goes through
    # InputError (exit 2, with the choices) whatever typer's own exception classes are.
    fmt: str | None = typer.Option(
        None,
        "--format",
        "-f",
        help=f"One of {', '.join(FORMATS)}; without it every output but blueprint-web goes to "
        "DIR/report/. blueprint-web writes a leanblueprint project (src/) and builds its web "
        "blueprint (web/) with plasTeX: the extra paperlint[blueprint].",
    ),
    output: Path | None = typer.Option(
        None,
        "--output",
        "-o",
        help="File for --format (default: stdout), or folder for all and for blueprint-web "
        "(default: DIR/report/blueprint/).",
    ),
    verbose: bool = VERBOSE,
) -> None:
    """Write the author report: md, html, json, sarif, graph, worksheet, files to check."""
    # Imported here: jinja2 must not slow down `paperlint --help`.
    from paperlint.agents.prompts import template_hashes
    from paperlint.reports.load import load_workspace
    from paperlint.reports.write import publish, render, write_all

    if fmt is not None and fmt not in FORMATS:
        raise InputError(f"unknown report format {fmt!r}", hint=f"use one of {', '.join(FORMATS)}")
    stale = stale_marks(workspace)
    if stale is not None:
        typer.echo(stale.banner(), err=True)
    if fmt == ReportFormat.BLUEPRINT_WEB:
        from paperlint.reports.blueprint_build import build_web, write_project

        folder = output or workspace / "report" / "blueprint"
        write_project(load_workspace(workspace, templates=template_hashes(), stale=stale), folder)
        typer.echo(str(build_web(folder)))
        return
    if fmt is None:
        for path in write_all(workspace, output, templates=template_hashes(), stale=stale):
            typer.echo(str(path))
        return
    text = render(load_workspace(workspace, templates=template_hashes(), stale=stale), fmt)
    if output is None:
        typer.echo(text, nl=False)
    else:
        publish(output, text)
        typer.echo(str(output), err=True)


def stale_marks(workspace: Path) -> StaleMarks | None:
    """The marks of a paper changed since the check (`revise.staleness`); None when it has not
    (or `workspace` is not a workspace: the report's own loading says so)."""
    from paperlint.errors import StateError
    from paperlint.records.workspace import open_workspace
    from paperlint.reports.load import StaleMarks
    from paperlint.revise.staleness import staleness

    try:
        found = staleness(open_workspace(workspace))
    except (StateError, InputError, OSError):
        return None
    if not found.stale:
        return None
    return StaleMarks(found.message(workspace), found.hint(workspace), dict(found.results))

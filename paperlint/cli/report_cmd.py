"""`paperlint report DIR`: render the author report from a check workspace's records."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

import typer

from paperlint.cli.root import app


class ReportFormat(StrEnum):
    md = "md"
    html = "html"
    json = "json"
    sarif = "sarif"
    blueprint = "blueprint"


@app.command("report")
def report(
    workspace: Path = typer.Argument(..., help="The check workspace, e.g. paper.paperlint/."),
    fmt: ReportFormat | None = typer.Option(
        None, "--format", "-f", help="One output; without it every output goes to DIR/report/."
    ),
    output: Path | None = typer.Option(
        None, "--output", "-o", help="File for --format (default: stdout), or folder for all."
    ),
) -> None:
    """Write the author report: md, html, json, sarif, graph, worksheet, files to check."""
    # Imported here: jinja2 and networkx must not slow down `paperlint --help`.
    from paperlint.records import write_text_atomic
    from paperlint.reports.load import load_workspace
    from paperlint.reports.write import render, write_all

    if fmt is None:
        for path in write_all(workspace, output):
            typer.echo(str(path))
        return
    text = render(load_workspace(workspace), fmt.value)
    if output is None:
        typer.echo(text, nl=False)
    else:
        write_text_atomic(output, text)
        typer.echo(str(output), err=True)

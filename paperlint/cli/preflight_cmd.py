"""`paperlint preflight`: list a paper's numbered results (docs/design.md §4)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from paperlint.cli.options import FORMAT, VERBOSE, Format, colour, paint, require_paper
from paperlint.cli.root import app
from paperlint.errors import InputError


@app.command("preflight")
def preflight(
    path: Path = typer.Argument(..., help="The paper: a .tex file, a project folder or a PDF."),
    root: str | None = typer.Option(None, "--root", help="The main .tex file of a folder."),
    fmt: Format = FORMAT,
    output: Path | None = typer.Option(None, "-o", "--output", help="Write the inventory JSON."),
    latex: bool = typer.Option(False, "--latex", help="Take numbers from a LaTeX compile."),
    strict: bool = typer.Option(
        False, "--strict", help="Exit 1 when a diagnostic is an error (for CI and pre-commit)."
    ),
    quiet: bool = typer.Option(
        False, "--quiet", "-q", help="Print only the diagnostics, not the inventory."
    ),
    verbose: bool = VERBOSE,
) -> int:
    """List every numbered result with its number, label, place, proof and uses."""
    from paperlint.preflight.inventory import build_inventory
    from paperlint.preflight.render import text_table

    require_paper(path)
    if latex and path.suffix.lower() == ".pdf":
        raise InputError("--latex needs the TeX sources", path=path, hint="drop --latex for a PDF")
    inventory = build_inventory(path, root=root)
    if latex:
        from paperlint.preflight.latexcheck import apply_latex

        project = path if path.is_dir() else path.parent
        inventory = apply_latex(inventory, project)
    if output is not None:
        from paperlint.records import write_record

        write_record(output, inventory)
    if quiet:
        pass
    elif fmt == "json":
        typer.echo(json.dumps(inventory.model_dump(mode="json", by_alias=True), indent=2))
    else:
        typer.echo(text_table(inventory))
    tty = colour(sys.stderr)
    for diagnostic in inventory.diagnostics:
        line = diagnostic.render()
        typer.echo(
            line.replace(
                diagnostic.severity, paint(diagnostic.severity, diagnostic.severity, enabled=tty), 1
            )
            if tty
            else line,
            err=True,
        )
    errors = sum(1 for d in inventory.diagnostics if d.severity == "error")
    return 1 if strict and errors else 0

"""`paperlint preflight`: the typer command (its options and help); the logic is
`paperlint.cli.preflight_run.preflight`, which `paperlint.cli.fast` also calls without typer.
`tests/cli/test_fast_preflight.py` holds the fast parser's option table to these options."""

from __future__ import annotations

from pathlib import Path

import typer

from paperlint.cli.options import FORMAT, VERBOSE
from paperlint.cli.plain import Format
from paperlint.cli.preflight_run import FailOn
from paperlint.cli.preflight_run import preflight as run_preflight
from paperlint.cli.root import app


@app.command("preflight")
def preflight(
    path: Path | None = typer.Argument(
        None,
        help="The paper: a .tex file, a project folder or a PDF. Default: [preflight] paper "
        "of paperlint.toml, else the main .tex file in the current folder.",
        show_default=False,
    ),
    root: str | None = typer.Option(None, "--root", help="The main .tex file of a folder."),
    fmt: Format = FORMAT,
    output: Path | None = typer.Option(None, "-o", "--output", help="Write the inventory JSON."),
    latex: bool = typer.Option(False, "--latex", help="Take numbers from a LaTeX compile."),
    fail_on: FailOn | None = typer.Option(
        None,
        "--fail-on",
        help="Exit 1 when a diagnostic is this severe or worse: error, or warning (duplicate "
        "labels, undefined references; what the pre-commit hook uses).",
    ),
    strict: bool = typer.Option(False, "--strict", help="The same as --fail-on error."),
    ignore: list[str] = typer.Option(
        [], "--ignore", help="A diagnostic code that never fails the run (repeatable)."
    ),
    config: Path | None = typer.Option(None, "--config", help="A paperlint.toml to use."),
    quiet: bool = typer.Option(
        False, "--quiet", "-q", help="Print only the diagnostics, not the inventory."
    ),
    verbose: bool = VERBOSE,
) -> int:
    """List every numbered result with its number, label, place, proof and uses."""
    return run_preflight(
        path,
        root=root,
        fmt=fmt,
        output=output,
        latex=latex,
        fail_on=fail_on,
        strict=strict,
        ignore=ignore,
        config=config,
        quiet=quiet,
    )

"""`paperlint batch`: check many papers, each in its own workspace, with one summary."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from paperlint.cli.check_cmd import _run_options
from paperlint.cli.options import ADDRESS, EXECUTOR, FORMAT, JOBS, QUIET, VERBOSE, Executor
from paperlint.cli.plain import Format
from paperlint.cli.root import app

if TYPE_CHECKING:
    from paperlint.config import Config


@app.command("batch")
def batch(
    papers: list[Path] = typer.Argument(..., help="The papers: .tex files, folders or PDFs."),
    workroot: Path | None = typer.Option(
        None, "--workroot", help="Put each paper's workspace in DIR/NAME (default: beside it)."
    ),
    replays: bool = typer.Option(
        False,
        "--replays",
        help="Serve the replay-full/ or replay/ folder next to each paper that has one.",
    ),
    config: Path | None = typer.Option(None, "--config", help="A paperlint.toml for every paper."),
    fresh: bool = typer.Option(False, "--fresh", help="Discard earlier checks of these papers."),
    jobs: int | None = JOBS,
    executor: Executor = EXECUTOR,
    address: str | None = ADDRESS,
    fmt: Format = FORMAT,
    quiet: bool = QUIET,
    verbose: bool = VERBOSE,
) -> int:
    """Check every paper in its own workspace; print one summary table."""
    from paperlint.cli.plain import require_paper
    from paperlint.config import load_config
    from paperlint.engine.batch import BatchRequest, batch_exit_code, render_table, run_batch

    run = _run_options(jobs, executor, address)
    for paper in papers:
        require_paper(paper)

    def config_for(paper: Path) -> Config:
        return load_config(config, start=paper).config

    def announce(paper: Path) -> None:
        if not quiet:
            typer.echo(f"paperlint: checking {paper}", err=True)

    rows = run_batch(
        BatchRequest(
            papers=papers,
            config_for=config_for,
            workroot=workroot,
            replays=replays,
            fresh=fresh,
            run=run,
        ),
        on_paper=announce,
    )
    code = int(batch_exit_code(rows))
    if fmt == Format.JSON:
        typer.echo(json.dumps({"exit_code": code, "papers": [asdict(r) for r in rows]}, indent=2))
    else:
        typer.echo(render_table(rows))
    return code

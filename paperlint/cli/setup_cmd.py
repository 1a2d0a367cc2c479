"""`paperlint setup` and `paperlint doctor`: thin; the logic is in paperlint.lean.setup/doctor."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from paperlint.cli.options import FORMAT, VERBOSE
from paperlint.cli.plain import Format
from paperlint.cli.root import app
from paperlint.exitcodes import ExitCode

CONFIG = typer.Option(None, "--config", help="A paperlint.toml to use.")


def _settings(config: Path | None) -> tuple[dict[str, list[str]], str | None, str | None]:
    from paperlint.config import ROLES, load_config

    loaded = load_config(config, start=Path.cwd()).config
    models = {role: loaded.models.ladder(role) for role in ROLES}
    return models, loaded.lean.project_dir, loaded.lean.repl_dir


@app.command("doctor")
def doctor(format: Format = FORMAT, config: Path | None = CONFIG, verbose: bool = VERBOSE) -> int:
    """Say which pieces a real check needs are present, and the command that fixes each."""
    from paperlint.config import load_config
    from paperlint.lean.doctor import run_doctor
    from paperlint.lean.pins import resolve_paths

    models, project_dir, repl_dir = _settings(config)
    mode = load_config(config, start=Path.cwd()).config.lean.sandbox
    report = run_doctor(resolve_paths(project_dir, repl_dir), models, sandbox=mode)
    if format == "json":
        typer.echo(json.dumps(report.to_json(), indent=2))
    else:
        typer.echo(report.text())
    return ExitCode.VERIFIED if report.ok else ExitCode.ISSUE


@app.command("setup")
def setup(
    dry_run: bool = typer.Option(False, "--dry-run", help="Print the commands; run nothing."),
    config: Path | None = CONFIG,
    fmt: Format = FORMAT,
    verbose: bool = VERBOSE,
) -> int:
    """Install the pinned toolchain, Mathlib and the REPL (needs network, once)."""
    from paperlint.lean.extraction import index_file
    from paperlint.lean.pins import resolve_paths
    from paperlint.lean.setup import plan, run_setup

    _, project_dir, repl_dir = _settings(config)
    paths = resolve_paths(project_dir, repl_dir)
    rc = run_setup(paths, dry_run=dry_run)  # its prose goes to stderr
    if rc == 0 and not dry_run:
        rc = _save_index(index_file(paths))
    if fmt == Format.JSON:
        steps = [
            {"what": s.what, "cmd": list(s.cmd), "cwd": str(s.cwd), "timeout_s": s.timeout_s}
            for s in plan(paths)
        ]
        payload = {"ok": rc == 0, "dry_run": dry_run, "exit_code": rc, "steps": steps}
        typer.echo(json.dumps(payload, indent=2))
    return rc


def _save_index(extraction: Path) -> int:
    """Save the search index built from the extraction, so no run builds it again (seconds
    and hundreds of MiB at Mathlib's size); a current one is kept."""
    from paperlint.errors import InputError
    from paperlint.prover.index import DeclIndex, save_index, saved_file

    if not extraction.is_file():
        return 0  # the extraction step said why
    target = saved_file(extraction)
    if DeclIndex.load(target, extraction) is not None:
        typer.echo(f"skip: save the search index (already there: {target})", err=True)
        return 0
    typer.echo(f"saving the search index to {target}", err=True)
    try:
        save_index(extraction)
    except InputError as exc:
        typer.echo(f"failed: save the search index: {exc}", err=True)
        return 1
    return 0

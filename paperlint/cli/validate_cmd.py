"""`paperlint validate DIR` and `paperlint replay DIR`: check verdicts against their evidence."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from paperlint.cli.options import FORMAT, VERBOSE
from paperlint.cli.plain import Format
from paperlint.cli.root import app


@app.command("validate")
def validate(
    workspace: Path = typer.Argument(..., help="The check workspace, e.g. paper.paperlint/."),
    fmt: Format = FORMAT,
    verbose: bool = VERBOSE,
) -> int:
    """Re-derive every verdict from its evidence; exit 1 on any disagreement."""
    from paperlint.agents.prompts import template_hashes
    from paperlint.records.drift import template_drift_notes
    from paperlint.validate.load import load_snapshot
    from paperlint.validate.validator import validate_with_notes

    snap = load_snapshot(workspace)
    findings, evidence = validate_with_notes(snap)
    notes = [*evidence, *template_drift_notes(snap.events or (), template_hashes())]
    stale = changed_since(workspace)
    if fmt == "json":
        payload = {
            "workspace": str(workspace),
            "results": len(snap.records),
            "findings": [f.to_json() for f in findings],
            "notes": notes,
            "stale": stale,
            "ok": not findings,
        }
        typer.echo(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        for finding in findings:
            typer.echo(finding.render(str(workspace)))
        for note in notes:
            typer.echo(f"note: {note}")
        verdicts = sum(1 for r in snap.records if r.verdict is not None)
        summary = f"{len(findings)} finding(s)" if findings else "every verdict re-derives"
        typer.echo(f"{workspace}: {verdicts} verdict(s) checked; {summary}", err=bool(findings))
        if stale is not None:
            typer.echo(stale, err=True)
    return 1 if findings else 0


def changed_since(workspace: Path) -> str | None:
    """`STALE: …` when the paper changed since the check: its verdicts re-derive from their
    evidence and still speak of the old text (status's and the report's words)."""
    from paperlint.records.workspace import open_workspace
    from paperlint.revise.staleness import staleness

    found = staleness(open_workspace(workspace), per_result=False)
    if not found.stale:
        return None
    return f"STALE: {found.message(workspace)}; {found.hint(workspace)}"


@app.command("replay")
def replay(
    workspace: Path = typer.Argument(..., help="The check workspace, e.g. paper.paperlint/."),
    lean_replay: Path | None = typer.Option(
        None,
        "--lean-replay",
        help="Serve Lean answers from this recorded replay folder instead of running Lean. "
        "Never taken from the workspace: a replayed run needs it given here.",
    ),
    lean_project: Path | None = typer.Option(
        None,
        "--lean-project",
        help="The Lake project to run Lean in (default: your own config's [lean] project_dir, "
        "else the bundled one; never the workspace's).",
    ),
    fmt: Format = FORMAT,
    verbose: bool = VERBOSE,
) -> int:
    """Re-run every Lean check and the mechanical audit with no model; re-derive each verdict."""
    from paperlint.validate.load import load_snapshot
    from paperlint.validate.replay import choose_lean, replay_workspace, trusted_lean

    snap = load_snapshot(workspace)
    lean = choose_lean(snap, trusted_lean(workspace, lean_replay, lean_project))
    try:
        report = replay_workspace(snap, workspace, lean)
    finally:
        lean.close()
    stale = changed_since(workspace)
    if fmt == "json":
        typer.echo(json.dumps({**report.to_json(), "stale": stale}, indent=2, ensure_ascii=False))
    else:
        for line in report.lines():
            typer.echo(line)
        if stale is not None:
            typer.echo(stale, err=True)
    return report.exit_code

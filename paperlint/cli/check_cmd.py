"""`paperlint check`, `resume` and `status`."""

from __future__ import annotations

import json
import logging
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from paperlint.cli.boundary import crash_dir
from paperlint.cli.options import (
    ADDRESS,
    EXECUTOR,
    FORMAT,
    JOBS,
    QUIET,
    VERBOSE,
    Executor,
    resolve_jobs,
)
from paperlint.cli.plain import Format, require_paper
from paperlint.cli.progress import StatusLine
from paperlint.cli.root import app
from paperlint.errors import typed
from paperlint.exitcodes import ExitCode

if TYPE_CHECKING:
    from paperlint.engine.actions import Action
    from paperlint.engine.executors import RunOptions
    from paperlint.engine.summary import Summary
    from paperlint.records.results import Results


class Until(StrEnum):
    """The stages `--until` can stop at (a typo is refused, never read as "run everything")."""

    planned = "planned"
    drafted = "drafted"
    gated = "gated"


NOTHING_TO_CHECK = (
    "the paper holds no numbered theorem, lemma, proposition or corollary to check (is it "
    "empty, or are its results in environments paperlint does not know?); exit 5"
)

UNTIL = typer.Option(None, "--until", help="Stop once every result has reached this stage.")


def _budget(max_cost: float | None, max_calls: int | None) -> dict[str, Any]:
    budget: dict[str, Any] = {}
    if max_cost is not None:
        budget["max_cost_usd"] = max_cost
    if max_calls is not None:
        budget["max_calls"] = max_calls
    return budget


@app.command("check")
def check(
    paper: Path = typer.Argument(..., help="The paper: a .tex file, a project folder or a PDF."),
    workdir: Path | None = typer.Option(None, "--workdir", help="Default: PAPER.paperlint/"),
    config: Path | None = typer.Option(None, "--config", help="A paperlint.toml to use."),
    root: str | None = typer.Option(None, "--root", help="The main .tex file of a folder."),
    until: Until | None = UNTIL,
    max_cost: float | None = typer.Option(None, "--max-cost", help="Budget in USD."),
    max_calls: int | None = typer.Option(None, "--max-calls", help="Budget in model calls."),
    replay: Path | None = typer.Option(None, "--replay", help="Replay a recorded run (offline)."),
    fresh: bool = typer.Option(False, "--fresh", help="Discard an earlier check of this paper."),
    record: Path | None = typer.Option(
        None, "--record", help="Also write this live run as a replay fixture into DIR."
    ),
    lean_replay: Path | None = typer.Option(
        None, "--lean-replay", help="Live models, Lean answers from a recorded DIR."
    ),
    allow_unpriced: bool = typer.Option(
        False, "--allow-unpriced", help="Run with --max-cost although a model has no price."
    ),
    jobs: int | None = JOBS,
    executor: Executor = EXECUTOR,
    address: str | None = ADDRESS,
    fmt: Format = FORMAT,
    quiet: bool = QUIET,
    verbose: bool = VERBOSE,
) -> int:
    """Check every numbered result of PAPER; verdicts go to PAPER.paperlint/."""
    # Say something before the heavy imports (engine, blueprint, later litellm), so the user
    # sees at once that the command started.
    typer.echo(f"paperlint: checking {paper}", err=True)
    _announce(replay)
    run = _run_options(jobs, executor, address)
    from paperlint.config import load_config
    from paperlint.engine.check import CheckRequest, start_check
    from paperlint.records.workspace import default_workdir

    require_paper(paper)
    loaded = load_config(config, start=paper, cli={"budget": _budget(max_cost, max_calls)})
    for path in loaded.files:
        logging.getLogger(__name__).info("config read from %s", path)
    # resolved first: `check .` must name its folder `NAME.paperlint`, not `..paperlint`
    folder = workdir or default_workdir(paper.resolve() if paper.is_dir() else paper)
    crash_dir.append(folder)
    request = CheckRequest(
        paper=paper,
        config=loaded.config,
        workdir=folder,
        root=root,
        replay=replay,
        until=until.value if until else None,
        fresh=fresh,
        record=record,
        lean_replay=lean_replay,
        allow_unpriced=allow_unpriced,
        run=run,
    )
    return _finish(start_check(request, progress=_progress(quiet, folder)), fmt)


@app.command("resume")
def resume(
    workdir: Path = typer.Argument(..., help="The check folder (PAPER.paperlint/)."),
    until: Until | None = UNTIL,
    max_cost: float | None = typer.Option(None, "--max-cost", help="New budget in USD."),
    max_calls: int | None = typer.Option(None, "--max-calls", help="New budget in calls."),
    jobs: int | None = JOBS,
    executor: Executor = EXECUTOR,
    address: str | None = ADDRESS,
    fmt: Format = FORMAT,
    quiet: bool = QUIET,
    verbose: bool = VERBOSE,
) -> int:
    """Continue a check from its last complete record."""
    from paperlint.engine.check import resume_check

    run = _run_options(jobs, executor, address)
    crash_dir.append(workdir)
    summary = resume_check(
        workdir,
        budget=_budget(max_cost, max_calls),
        until=until.value if until else None,
        progress=_progress(quiet, workdir),
        run=run,
    )
    return _finish(summary, fmt)


@app.command("status")
def status(
    workdir: Path = typer.Argument(..., help="The check folder."),
    fmt: Format = FORMAT,
    why: bool = typer.Option(False, "--why", help="Say why each result is not done."),
    verbose: bool = VERBOSE,
) -> int:
    """Show each result's stage and verdict (read-only)."""
    from dataclasses import asdict

    from paperlint.engine.status import status_rows
    from paperlint.records.workspace import open_workspace
    from paperlint.revise.staleness import staleness

    found = staleness(open_workspace(workdir))
    rows, results, stale = status_rows(workdir, why=why, stale_results=found.results)
    if fmt == "json":
        payload = {
            "replay": results.replay,
            "stale": stale,
            "results": [asdict(r) for r in rows],
        }
        typer.echo(json.dumps(payload, indent=2))
        return 0
    if results.replay:
        typer.echo("REPLAY: these verdicts come from a recorded run, not a live check.")
    for reason in stale:
        typer.echo(f"stale: {reason}")
    if found.stale:
        typer.echo(f"STALE: {found.message(workdir)}; {found.hint(workdir)}")
    typer.echo(f"{'number':<8} {'kind':<12} {'id':<28} {'stage':<13} verdict")
    for row in rows:
        typer.echo(
            f"{row.number or '-':<8} {row.kind:<12} {row.id:<28} {row.stage:<13} "
            f"{row.verdict or '-'}" + (f"  STALE: {row.stale}" if row.stale else "")
        )
        for reason in row.why:
            typer.echo(f"{'':<8} why: {reason}")
    return 0


def _run_options(jobs: int | None, executor: Executor, address: str | None) -> RunOptions:
    """`--jobs/--executor/--address`; Ray asked for but not installed is a usage error."""
    from paperlint.engine.executors import RunOptions, require_ray
    from paperlint.errors import InputError

    if address is not None and executor is not Executor.RAY:
        raise InputError("--address names a Ray cluster; it needs --executor ray")
    if executor is Executor.RAY:
        require_ray()
    return RunOptions(jobs=resolve_jobs(jobs), executor=executor.value, address=address)


def _announce(replay: Path | None) -> None:
    if replay is not None:
        typer.echo(
            f"REPLAY: model answers and Lean responses are served from {replay}; "
            "no model and no Lean are run.",
            err=True,
        )


def _progress(quiet: bool, workspace: Path | None = None) -> Any:
    from paperlint.engine.actions import Progress

    _status.clear()
    if quiet:
        return Progress()

    def spend() -> tuple[int, float]:
        from paperlint.records import EventLog
        from paperlint.records.journal import spend_of

        if workspace is None or not (workspace / "events.jsonl").is_file():
            return (0, 0.0)
        total = spend_of(EventLog(workspace / "events.jsonl").read())
        return (total.calls, total.cost_usd)

    line = StatusLine(sys.stderr, spend=spend if workspace is not None else None)
    _status.append(line)

    def on_action(action: Action, results: Results) -> None:
        line.update(action.describe(), **_done_of(results))

    def on_flight(action: Action, results: Results, in_flight: int) -> None:
        line.update(action.describe(), **_done_of(results), in_flight=in_flight)

    return Progress(on_action=on_action, on_flight=on_flight)


# The status line of the command running now (one command per process at a time), for its
# last line once the run ends.
_status: list[StatusLine] = []


def _done_of(results: Results) -> dict[str, int]:
    """Verdict-bearing results with a verdict, of all verdict-bearing ones (a definition bears
    none, so counting it would leave a finished check at [3/5])."""
    bearing = [r for r in results.results if r.verdict_bearing]
    return {"done": sum(1 for r in bearing if r.verdict is not None), "total": len(bearing)}


def replay_label(parts: list[str]) -> str:
    """What of the run was replayed, as the result line's prefix: a live run with recorded
    Lean answers is not a replay of the check (its model answers are real)."""
    if "model" in parts:
        return "REPLAY — "
    if "lean" in parts:
        return "live models, recorded Lean answers — "
    return ""


def _finish(summary: Summary, fmt: Format = Format.TEXT) -> int:
    if _status:
        total = sum(summary.counts.values())
        _status.pop().finish(done=total - summary.counts.get("pending", 0), total=total)
    elif sys.stderr.isatty():
        sys.stderr.write("\r\033[K")
    if fmt == Format.JSON:
        payload = {
            "ok": True,  # the command ran; the verdicts are in counts and exit_code
            "exit_code": int(summary.exit_code),
            "counts": dict(sorted(summary.counts.items())),
            "replay": summary.replay,
            "interrupted": summary.interrupted,
            "stop_reason": summary.stop_reason,
            "notes": summary.notes,
            "warning": NOTHING_TO_CHECK if summary.exit_code == ExitCode.NOTHING_TO_CHECK else None,
            "workspace": str(summary.workspace),
            "report": f"{summary.workspace}/report/",
        }
        typer.echo(json.dumps(payload, indent=2))
        return int(summary.exit_code)
    counts = ", ".join(f"{k}: {v}" for k, v in sorted(summary.counts.items())) or "no results"
    label = replay_label(summary.replay_parts)
    typer.echo(f"{label}{counts}")
    if summary.exit_code == ExitCode.NOTHING_TO_CHECK:
        typer.echo(f"warning: {NOTHING_TO_CHECK}", err=True)
    if summary.stop_reason:
        typer.echo(f"stopped: {summary.stop_reason}")
    if summary.stop_reason == "budget_exhausted":
        typer.echo(
            "  hint: the budget is spent; "
            f"{typed('paperlint', 'resume', summary.workspace, '--max-calls', 'N')} "
            "(or --max-cost USD) with a larger cap continues, plain `resume` has nothing to do",
            err=True,
        )
    if summary.interrupted:
        resume = typed("paperlint", "resume", summary.workspace)
        typer.echo(f"interrupted: resume with {resume}", err=True)
    for note in summary.notes:
        typer.echo(f"  {note}", err=True)
    typer.echo(f"records: {summary.workspace}; report: {summary.workspace}/report/")
    return int(summary.exit_code)

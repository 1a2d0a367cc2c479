"""`paperlint runs`: the per-user run record — summary, adding a check, the chooser's pick."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from paperlint.cli.options import VERBOSE
from paperlint.cli.root import app
from paperlint.errors import InputError

runs_app = typer.Typer(
    help="The per-user run record of past checks, and the strategy it would choose.",
    no_args_is_help=False,
    invoke_without_command=True,
    rich_markup_mode=None,
)
app.add_typer(runs_app, name="runs")

FORMATS = ("text", "json")
GROUPS = ("kind", "area")


def _choice(value: str, allowed: tuple[str, ...], what: str) -> str:
    if value not in allowed:
        raise InputError(f"unknown {what} {value!r}", hint="use " + " or ".join(allowed))
    return value


@runs_app.callback()
def summary(
    ctx: typer.Context,
    by: str = typer.Option("kind", "--by", help="Group by result kind or Mathlib area."),
    replays: bool = typer.Option(False, "--replays", help="Count replayed checks too."),
    fmt: str = typer.Option("text", "--format", help="text or json"),
) -> None:
    """Summarise the run record: per group and strategy, outcomes, calls and cost."""
    if ctx.invoked_subcommand is not None:
        return
    from paperlint.learning.runrecord import read_entries, record_path, summarise
    from paperlint.learning.userdata import user_data_dir

    _choice(fmt, FORMATS, "format")
    group = _choice(by, GROUPS, "grouping")
    data = user_data_dir()
    read = read_entries(data)
    rows = summarise(read.entries, by="kind" if group == "kind" else "area", live_only=not replays)
    if fmt == "json":
        payload = {
            "record": str(record_path(data)),
            "entries": len(read.entries),
            "skipped_lines": read.skipped,
            "rows": [r.model_dump(mode="json") for r in rows],
        }
        typer.echo(json.dumps(payload, indent=2))
        return
    typer.echo(f"{record_path(data)}: {len(read.entries)} entr(y/ies)")
    if read.skipped:
        typer.echo(f"  {read.skipped} unreadable line(s) skipped", err=True)
    if not rows:
        typer.echo("  nothing to summarise yet" + ("" if replays else " (replays left out)"))
    for r in rows:
        cost = "unpriced" if r.cost_usd is None else f"${r.cost_usd:.2f}"
        typer.echo(
            f"  {r.group:16} {r.strategy:20} runs {r.runs:4}  verified {r.verified:4}  "
            f"issue {r.issues:3}  unfinished {r.unfinished:4}  calls/run {r.mean_model_calls:6}"
            f"  {cost}"
        )


@runs_app.command("add")
def add(
    workspace: Path = typer.Argument(..., help="A check workspace, e.g. paper.paperlint/."),
    fmt: str = typer.Option("text", "--format", help="text or json"),
    verbose: bool = VERBOSE,
) -> None:
    """Append a finished check's results to the run record."""
    from paperlint.learning.runrecord import append_entries, read_workspace
    from paperlint.learning.userdata import user_data_dir

    _choice(fmt, FORMATS, "format")
    entries = read_workspace(workspace)
    path = append_entries(user_data_dir(), entries)
    if fmt == "json":
        typer.echo(json.dumps({"record": str(path), "added": len(entries)}))
    else:
        typer.echo(f"{path}: {len(entries)} entr(y/ies) added from {workspace}")


@runs_app.command("choose")
def choose_cmd(
    kind: str = typer.Argument(..., help="An obligation kind: a result kind or a Mathlib area."),
    seed: int = typer.Option(0, "--seed", help="The chooser's seed."),
    min_trials: int = typer.Option(20, "--min-trials", help="Trials before it leaves the default."),
    fmt: str = typer.Option("text", "--format", help="text or json"),
    verbose: bool = VERBOSE,
) -> None:
    """Say which strategy the chooser would take for the next obligation of KIND, and why."""
    from paperlint.learning.runrecord import read_entries
    from paperlint.learning.strategy import ChooserSettings, choose, trials_of
    from paperlint.learning.userdata import user_data_dir

    _choice(fmt, FORMATS, "format")
    if min_trials < 0:
        raise InputError("--min-trials must be 0 or more")
    history = trials_of(read_entries(user_data_dir()).entries)
    choice = choose(history, kind, settings=ChooserSettings(seed=seed, min_trials=min_trials))
    if fmt == "json":
        typer.echo(json.dumps(choice.model_dump(mode="json"), indent=2))
    else:
        typer.echo(f"{kind}: {choice.strategy} ({choice.reason})")

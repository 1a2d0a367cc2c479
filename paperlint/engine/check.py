"""`check` and `resume`: set up a workspace, build the edges, run the loop, write the report."""

from __future__ import annotations

import logging
import shutil
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from paperlint import __version__
from paperlint.blueprint.build import build_blueprint
from paperlint.blueprint.model import Blueprint
from paperlint.config import Config, dump_config_toml, load_snapshot
from paperlint.domain import INPUT_KINDS
from paperlint.domain import is_verdict_bearing as _bearing
from paperlint.engine.apply import unfinished
from paperlint.engine.backends import ROLES, Backends, EdgeOptions, make_backends
from paperlint.engine.context import EngineContext, Settings
from paperlint.engine.plan import Policy, is_open
from paperlint.engine.run import Journal, Progress, run_loop, run_started_event
from paperlint.engine.summary import Summary, summarise
from paperlint.engine.workspace import (
    Workspace,
    default_workdir,
    open_workspace,
    write_results,
)
from paperlint.errors import InputError
from paperlint.lean import compose
from paperlint.lean.verifier import Verifier
from paperlint.preflight.model import Inventory, Result
from paperlint.records import WorkspaceLock, read_record, write_record
from paperlint.records.layout import transitive_deps
from paperlint.records.migrate import read_results
from paperlint.records.results import (
    Evidence,
    ResultRecord,
    Results,
    Stage,
    UnfinishedReason,
)
from paperlint.records.store import write_bytes_atomic, write_text_atomic
from paperlint.reports import write_report

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CheckRequest:
    paper: Path
    config: Config
    workdir: Path | None = None
    root: str | None = None
    replay: Path | None = None
    until: str | None = None
    fresh: bool = False
    verifier: Verifier | None = None  # replaces the Lean edge (fixture authoring, tests)
    report: bool = True
    edges: EdgeOptions = EdgeOptions()
    allow_unpriced: bool = False


def start_check(request: CheckRequest, *, progress: Progress | None = None) -> Summary:
    from paperlint.preflight.inventory import build_inventory

    paper = request.paper
    if not paper.exists():
        raise InputError("no such file or folder", path=paper, hint="give the paper's .tex file")
    if request.replay is None and not request.allow_unpriced:
        refuse_unpriced(request.config)
    inventory = build_inventory(paper, root=request.root)
    ws = Workspace(request.workdir or default_workdir(paper))
    project_dir = paper if paper.is_dir() else paper.parent
    with claim_folder(ws, fresh=request.fresh):
        keep_sources(project_dir, ws, inventory)
        blueprint = build_blueprint(inventory)
        write_record(ws.inventory, inventory)
        write_record(ws.blueprint, blueprint)
        run: dict[str, Any] = {
            "paperlint_version": __version__,
            "paper": str(paper.resolve()),
            "replay_dir": str(request.replay.resolve()) if request.replay else "",
            **edge_paths(request.edges),
            "allow_unpriced": request.allow_unpriced,
        }
        extra = {"run": run, "versions": versions_of(request.config)}
        write_text_atomic(ws.config, dump_config_toml(request.config, extra))
        backends = make_backends(
            request.config, request.replay, verifier=request.verifier, edges=request.edges
        )
        results = initial_results(inventory, blueprint, backends, paper.name)
        write_results(ws, results)
        summary = _run(
            ws,
            inventory,
            blueprint,
            request.config,
            backends,
            results,
            "check",
            request.until,
            progress,
        )
    if request.report:
        write_report(ws.root)
    return summary


def resume_check(
    workdir: Path,
    *,
    budget: dict[str, Any] | None = None,
    until: str | None = None,
    progress: Progress | None = None,
    verifier: Verifier | None = None,
    report: bool = True,
) -> Summary:
    ws = open_workspace(workdir)
    config, extra = load_snapshot(ws.config.read_text(encoding="utf-8"))
    if budget:
        config = config.with_overrides(**budget)
    run = extra.get("run", {})
    replay_dir = run.get("replay_dir") or None
    edges = EdgeOptions(
        record=Path(run["record_dir"]) if run.get("record_dir") else None,
        lean_replay=Path(run["lean_replay_dir"]) if run.get("lean_replay_dir") else None,
    )
    if budget and not replay_dir and not run.get("allow_unpriced"):
        refuse_unpriced(config)
    with WorkspaceLock(ws.root):
        inventory = read_record(ws.inventory, Inventory)
        blueprint = read_record(ws.blueprint, Blueprint)
        results = ws.load_results()
        replay = Path(replay_dir) if replay_dir else None
        backends = make_backends(config, replay, verifier=verifier, edges=edges)
        summary = _run(
            ws, inventory, blueprint, config, backends, results, "resume", until, progress
        )
    if report:
        write_report(ws.root)
    return summary


def edge_paths(edges: EdgeOptions) -> dict[str, str]:
    """The run table's record of `--record`/`--lean-replay`, so `resume` wires the same."""
    return {
        "record_dir": str(edges.record.resolve()) if edges.record else "",
        "lean_replay_dir": str(edges.lean_replay.resolve()) if edges.lean_replay else "",
    }


def refuse_unpriced(config: Config) -> None:
    """With `--max-cost`, every configured model needs a price, or the cap could not bind."""
    if config.budget.max_cost_usd is None:
        return
    from paperlint.agents.client import unpriced_models

    unpriced = unpriced_models(config)
    if unpriced:
        raise InputError(
            f"--max-cost cannot be enforced: no price is known for {', '.join(unpriced)}",
            hint='add [prices."MODEL"] input_cost_per_token and output_cost_per_token to '
            "paperlint.toml, or pass --allow-unpriced to count their cost as unknown",
        )


def versions_of(config: Config) -> dict[str, str]:
    """Versions the report prints: paperlint, the Lean pins, the models per role."""
    from paperlint.lean.pins import default_project_dir, read_pins

    pins = read_pins(default_project_dir()).summary()
    versions = {"paperlint": __version__}
    versions.update({f"lean_{k}" if k == "toolchain" else k: str(v) for k, v in pins.items() if v})
    for role in ROLES:
        model = getattr(config.models, role)
        if model:
            versions[f"model_{role}"] = model
    if config.models.prover:
        versions["model_prover"] = ", ".join(config.models.prover)
    return versions


MARKER = ".paperlint-workspace"
"""Written first into a new work folder: a check stopped before its first record (a ^C in
the first seconds) still leaves a folder `check --fresh` recognises as its own."""


def claim_folder(ws: Workspace, *, fresh: bool) -> WorkspaceLock:
    """Lock the work folder for this run and make it ready; the lock is returned held.

    `--fresh` replaces an earlier check only while holding its lock, so a check that is
    still running is never deleted. A folder that cannot be made or written is an input
    error naming it (exit 2), not a crash."""
    if ws.root.exists() and not ws.root.is_dir():
        raise InputError("the work folder is a file", path=ws.root, hint=_OTHER_FOLDER)
    lock = WorkspaceLock(ws.root)
    try:
        lock.acquire()
    except OSError as exc:
        raise InputError(
            f"cannot use the work folder: {exc.strerror or exc}", path=ws.root, hint=_OTHER_FOLDER
        ) from None
    try:
        _prepare_folder(ws, fresh=fresh)
        (ws.root / MARKER).write_text(f"paperlint {__version__}\n", encoding="utf-8")
    except OSError as exc:
        lock.release()
        raise InputError(
            f"cannot write the work folder: {exc.strerror or exc}",
            path=exc.filename or ws.root,
            hint=_OTHER_FOLDER,
        ) from None
    except BaseException:
        lock.release()
        raise
    return lock


_OTHER_FOLDER = "pass --workdir with a folder you can write"


def _prepare_folder(ws: Workspace, *, fresh: bool) -> None:
    entries = [p for p in ws.root.iterdir() if p.name != ".lock"]
    if not entries:
        return
    ours = ws.is_workspace() or (ws.root / MARKER).exists()
    if not ours:
        raise InputError(
            "the work folder exists and is not a paperlint workspace",
            path=ws.root,
            hint="pass --workdir with a new folder",
        )
    if not fresh:
        if ws.is_workspace():
            raise InputError(
                "a check of this paper already exists",
                path=ws.root,
                hint=f"continue it with `paperlint resume {ws.root}`, or start over with --fresh",
            )
        raise InputError(
            "an earlier check of this paper stopped before its first record "
            "(there is no results.json to resume from)",
            path=ws.root,
            hint="start it again with --fresh",
        )
    for entry in entries:
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()


def keep_sources(project_dir: Path, ws: Workspace, inventory: Inventory) -> None:
    """The kept copy of the paper as checked: exactly the files preflight read."""
    shutil.rmtree(ws.source, ignore_errors=True)
    base = project_dir.resolve()
    for entry in inventory.files:
        src = (base / entry.path).resolve()
        if not src.is_relative_to(base) or not src.is_file():
            continue
        dest = ws.source / entry.path
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dest)


def is_verdict_bearing(result: Result) -> bool:
    return _bearing(result.kind, result.restates)


def initial_record(result: Result, lean_name: str | None) -> ResultRecord:
    """A result's record before any work: pending, or done at once when nothing is formalised."""
    bearing = is_verdict_bearing(result)
    record = ResultRecord(
        id=result.id,
        number=result.number,
        kind=result.kind,
        verdict_bearing=bearing,
        stage=Stage.PENDING,
        evidence=Evidence(lean_name=lean_name),
    )
    if not bearing and result.kind not in INPUT_KINDS:
        return record.model_copy(
            update={"stage": Stage.DONE, "notes": ["not verdict-bearing; not formalised"]}
        )
    return record


def initial_results(
    inventory: Inventory, blueprint: Blueprint, backends: Backends, paper: str
) -> Results:
    names = {e.id: e.lean_name for e in blueprint.entries}
    return Results(
        replay=bool(backends.replay_parts),
        replay_parts=list(backends.replay_parts),
        paper=paper,
        results=[initial_record(r, names.get(r.id)) for r in inventory.results],
    )


def _run(
    ws: Workspace,
    inventory: Inventory,
    blueprint: Blueprint,
    config: Config,
    backends: Backends,
    results: Results,
    command: str,
    until: str | None,
    progress: Progress | None,
) -> Summary:
    journal = Journal(ws.events())
    ctx = build_context(ws, inventory, blueprint, config, backends, journal)
    journal.emit(run_started_event(command, list(backends.replay_parts)))
    policy = policy_of(config, backends)
    missing = backends.missing()
    try:
        if missing:
            summary = _cannot_run(ws, results, journal, missing)
        else:
            summary = run_loop(ctx, results, policy, journal, until=until, progress=progress)
    finally:
        backends.verifier.close()
        _snapshot(ws, journal)
    return summary


def _snapshot(ws: Workspace, journal: Journal) -> None:
    """A checkpoint of the records at the end of every run (design §3 `snapshots/`)."""
    folder = ws.snapshots / f"event-{journal.seq:06d}"
    state = read_results(ws.results).engine_state if ws.results.exists() else None
    paths = [ws.results, ws.blueprint, ws.inventory, *([ws.root / state] if state else [])]
    for path in paths:
        if path.exists():
            write_bytes_atomic(folder / ws.rel(path), path.read_bytes())


def _cannot_run(
    ws: Workspace, results: Results, journal: Journal, missing: list[tuple[str, str]]
) -> Summary:
    """No model or no Lean: say so, and record every open result as unfinished, never guess."""
    reason = UnfinishedReason(missing[0][0])
    detail = "; ".join(text for _, text in missing)
    updated = [
        unfinished(r, reason, detail) if r.verdict_bearing and is_open(r) else r
        for r in results.results
    ]
    new = results.model_copy(update={"results": updated})
    write_results(ws, new)
    summary = summarise(new, workspace=str(ws.root), stop_reason=reason.value)
    journal.emit(
        {"type": "run_finished", "exit_code": int(summary.exit_code), "summary": summary.counts}
    )
    return replace(summary, notes=[text for _, text in missing])


def policy_of(config: Config, backends: Backends) -> Policy:
    budget = config.budget
    return Policy(
        prover_ladder=tuple(backends.models.get("prover_ladder", ())),
        prover_attempts=budget.prover_attempts,
        escalate_after=budget.escalate_after,
        draft_rounds=budget.draft_rounds,
        max_calls=budget.max_calls,
        max_cost_usd=budget.max_cost_usd,
    )


def build_context(
    ws: Workspace,
    inventory: Inventory,
    blueprint: Blueprint,
    config: Config,
    backends: Backends,
    journal: Journal,
) -> EngineContext:
    entries = {e.id: e for e in blueprint.entries}
    order = [i for i in blueprint.order if i in entries] or [r.id for r in inventory.results]
    settings = Settings(
        header=compose.header(max_heartbeats=config.lean.max_heartbeats),
        models={k: v for k, v in backends.models.items() if isinstance(v, str)},
        lean_timeout_s=config.lean.timeout_s,
        final_timeout_s=config.lean.final_timeout_s,
        failed_attempts_in_prompt=config.budget.max_failed_attempts_in_prompt,
    )
    return EngineContext(
        ws=ws,
        inventory=inventory,
        order=order,
        lean_names={e.id: e.lean_name for e in blueprint.entries},
        modules={e.id: e.lean_file for e in blueprint.entries},
        deps=transitive_deps(blueprint, order),
        settings=settings,
        ask=backends.ask_with(journal.emit, lambda: journal.spend),
        verifier=backends.verifier,
        emit=journal.emit,
    )

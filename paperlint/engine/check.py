"""`check` and `resume`: set up a workspace, open the run, run the loop, write the report."""

from __future__ import annotations

import json
import logging
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperlint import __version__
from paperlint.configfiles import WORKSPACE_MARKER
from paperlint.engine.executors import RunOptions
from paperlint.engine.settled import is_open, settled
from paperlint.engine.summary import Summary, summarise
from paperlint.errors import InputError, typed
from paperlint.records import WorkspaceLock, read_record, write_record
from paperlint.records.events import BaseEvent, LeanRestart, RunFinished, RunStarted
from paperlint.records.journal import Journal
from paperlint.records.layout import refuse_shared_folders
from paperlint.records.migrate import read_results
from paperlint.records.results import Results, UnfinishedReason
from paperlint.records.workspace import (
    Workspace,
    default_workdir,
    keep_sources,
    open_workspace,
    write_results,
)
from paperlint.spec import (
    Edges,
    RunSpec,
    read_spec,
    replay_parts,
    spec_for,
    write_spec,
)
from paperlint.store import write_bytes_atomic, write_text_atomic

# The steps, prompts, prover and blueprint graph are imported where a run is opened: a resume
# with nothing left to do (`settled`) never loads them.
if TYPE_CHECKING:
    from paperlint.blueprint.model import Blueprint
    from paperlint.config import Config
    from paperlint.engine.actions import Progress
    from paperlint.engine.opening import LeanEdge, OpenRun
    from paperlint.lean.pool import Pool
    from paperlint.lean.verifier import Verifier

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
    record: Path | None = None
    """`--record DIR`: also write every live model and Lean answer there, as a replay."""
    lean_replay: Path | None = None
    """`--lean-replay DIR`: live models, Lean answers from a recorded folder."""
    allow_unpriced: bool = False
    run: RunOptions = RunOptions()
    """`--jobs/--executor`; the CLI's default jobs is `paperlint.lean.jobs.default_jobs()`."""

    def spec(self) -> RunSpec:
        edges = Edges(replay=self.replay, record=self.record, lean_replay=self.lean_replay)
        return spec_for(self.config, self.paper, edges=edges, allow_unpriced=self.allow_unpriced)


def start_check(request: CheckRequest, *, progress: Progress | None = None) -> Summary:
    from paperlint.blueprint.build import build_blueprint
    from paperlint.engine.opening import open_run, refuse_unpriced, take_learning
    from paperlint.preflight.inventory import build_inventory
    from paperlint.records.initial import initial_results

    paper = request.paper
    if not paper.exists():
        raise InputError("no such file or folder", path=paper, hint="give the paper's .tex file")
    spec = request.spec()
    refuse_unpriced(spec)
    inventory = build_inventory(paper, root=request.root)
    refuse_shared_folders(inventory)
    ws = Workspace(request.workdir or default_workdir(paper))
    project_dir = paper if paper.is_dir() else paper.parent
    with claim_folder(ws, fresh=request.fresh, paper=paper):
        keep_sources(project_dir, ws, inventory)
        blueprint = build_blueprint(inventory)
        write_record(ws.inventory, inventory)
        write_record(ws.blueprint, blueprint)
        write_spec(ws.config, spec)
        take_learning(ws, spec, inventory)
        run = open_run(
            ws, spec, inventory=inventory, blueprint=blueprint, verifier=request.verifier
        )
        results = initial_results(inventory, blueprint, run.replay_parts, paper.name)
        write_results(ws, results)
        summary = _run(run, blueprint, results, "check", request.until, progress, request.run)
    record_run(spec, ws.root)
    if request.report:
        _write_report(ws)
    return summary


def resume_check(
    workdir: Path,
    *,
    budget: dict[str, Any] | None = None,
    until: str | None = None,
    progress: Progress | None = None,
    verifier: Verifier | None = None,
    report: bool = True,
    run: RunOptions | None = None,
) -> Summary:
    ws = open_workspace(workdir)
    spec = read_spec(ws.config)
    if budget:
        from paperlint.engine.opening import refuse_unpriced

        spec = spec.with_budget(**budget)
        refuse_unpriced(spec)
    with WorkspaceLock(ws.root):
        results = ws.load_results()  # first: a newer paperlint's workspace says so
        _refuse_if_stale(ws)  # a refused resume writes nothing
        remove_stale_temps(ws)
        journal = Journal(ws.events())
        if _marked_settled(ws, journal) and settled(results, ws.root, convergence=spec.convergence):
            summary = _nothing_to_do(ws, spec, results, journal)
        else:
            options = run or RunOptions()
            summary = _reopen(ws, spec, results, journal, verifier, until, progress, options)
    record_run(spec, ws.root)
    if report:
        _write_report(ws)
    return summary


def remove_stale_temps(ws: Workspace) -> None:
    """The temporary files of atomic writes a killed run left (`.NAME.XXXX.tmp`, beside the
    file they were to replace): under the workspace lock no writer owns them any more."""
    for stale in ws.root.rglob(".*.tmp"):
        if stale.is_file() and not stale.is_symlink():
            stale.unlink(missing_ok=True)


def _reopen(
    ws: Workspace,
    spec: RunSpec,
    results: Results,
    journal: Journal,
    verifier: Verifier | None,
    until: str | None,
    progress: Progress | None,
    options: RunOptions,
) -> Summary:
    from paperlint.blueprint.model import Blueprint
    from paperlint.engine.opening import open_run
    from paperlint.engine.steps import has_unknown_slots
    from paperlint.preflight.model import Inventory

    if has_unknown_slots(results):  # read before the registry taught the codec the slots
        results = ws.load_results()
    inventory = read_record(ws.inventory, Inventory)
    blueprint = read_record(ws.blueprint, Blueprint)
    opened = open_run(
        ws, spec, inventory=inventory, blueprint=blueprint, journal=journal, verifier=verifier
    )
    return _run(opened, blueprint, results, "resume", until, progress, options)


def _nothing_to_do(ws: Workspace, spec: RunSpec, results: Results, journal: Journal) -> Summary:
    """A resume of a settled check: the run a full opening would record (started, finished
    with the same counts, a snapshot), without opening the edges or loading the engine."""
    journal.emit(_started("resume", replay_parts(spec)))
    summary = summarise(results, workspace=str(ws.root))
    journal.emit(RunFinished(exit_code=int(summary.exit_code), summary=summary.counts))
    _snapshot(ws, journal)
    _mark(ws, journal)
    return summary


SETTLED = "settled.json"
"""In the engine folder: the last event and engine state of a run whose queue ran dry (no
action, a revisit included, left for any budget) with the convergence review settled. Only
while both are unchanged may a resume skip opening the run: a crash, a stop for budget or a
missing edge, `--until` and `revise` all leave it stale or unwritten."""


def _mark(ws: Workspace, journal: Journal) -> None:
    mark = {"seq": journal.seq, "engine_state": read_results(ws.results).engine_state}
    write_text_atomic(ws.state_dir / SETTLED, json.dumps(mark, sort_keys=True) + "\n")


def _marked_settled(ws: Workspace, journal: Journal) -> bool:
    try:
        mark = json.loads((ws.state_dir / SETTLED).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    current = {"seq": journal.seq, "engine_state": read_results(ws.results).engine_state}
    return isinstance(mark, dict) and mark == current


def _started(command: str, replay: Sequence[str]) -> RunStarted:
    return RunStarted(command=command, paperlint_version=__version__, replay=list(replay))


def _write_report(ws: Workspace) -> None:
    from paperlint.agents.prompts import template_hashes
    from paperlint.reports import write_report

    write_report(ws.root, templates=template_hashes())


def record_run(spec: RunSpec, folder: Path) -> None:
    """Append the check's outcomes to the per-user run record (`paperlint runs`); a record that
    cannot be written never fails the check: the workspace keeps everything (`runs add`)."""
    if not spec.records_runs:
        return
    from paperlint.learning.runrecord import record_check
    from paperlint.learning.userdata import user_data_dir

    try:
        record_check(user_data_dir(), folder)
    except (InputError, OSError) as exc:
        log.warning(
            "the run record was not updated (%s); `paperlint runs add %s` adds it", exc, folder
        )


GITIGNORE = (
    "# Written by paperlint: this check's workspace (records, evidence, a copy of the paper)\n"
    "# stays out of git. Delete this file to commit it (only `check --fresh` writes it again).\n"
    "*\n"
)
"""Written into a new work folder, as pytest, mypy and ruff do with their caches: a check run
inside the paper's repository leaves `git status` and `git add -A` as they were."""


def claim_folder(ws: Workspace, *, fresh: bool, paper: Path | None = None) -> WorkspaceLock:
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
        _prepare_folder(ws, fresh=fresh, paper=paper)
        (ws.root / WORKSPACE_MARKER).write_text(f"paperlint {__version__}\n", encoding="utf-8")
        (ws.root / ".gitignore").write_text(GITIGNORE, encoding="utf-8")
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


def _prepare_folder(ws: Workspace, *, fresh: bool, paper: Path | None) -> None:
    entries = [p for p in ws.root.iterdir() if p.name != ".lock"]
    if not entries:
        return
    ours = ws.is_workspace() or (ws.root / WORKSPACE_MARKER).exists()
    if not ours:
        raise InputError(
            "the work folder exists and is not a paperlint workspace",
            path=ws.root,
            hint="pass --workdir with a new folder",
        )
    if not fresh:
        if ws.is_workspace():
            _refuse_if_stale(ws, paper)
            raise InputError(
                "a check of this paper already exists",
                path=ws.root,
                hint=f"continue it with {typed('paperlint', 'resume', ws.root)}, or start over "
                "with --fresh",
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


def _refuse_if_stale(ws: Workspace, paper: Path | None = None) -> None:
    """A check whose paper changed since is never continued as if it had not: `revise` first
    (exit 2 with the command to run)."""
    from paperlint.engine.staleness import Staleness, changed_files

    found, files = changed_files(ws, paper)
    if files:
        stale = Staleness(found, files)
        raise InputError(stale.message(ws.root), path=ws.root, hint=stale.hint(ws.root))


def _run(
    run: OpenRun,
    blueprint: Blueprint,
    results: Results,
    command: str,
    until: str | None,
    progress: Progress | None,
    options: RunOptions,
) -> Summary:
    ws, journal = run.ctx.ws, run.journal
    journal.emit(_started(command, run.replay_parts))
    if command == "check":
        for event in learning_events(ws):
            journal.emit(event)
    try:
        if run.missing:
            summary = _cannot_run(ws, results, journal, list(run.missing))
        else:
            summary = _loop(run, results, options, until, progress)
            if until is None and run.convergence and not summary.interrupted:

                def again(rewound: Results) -> Summary:
                    return _loop(run, rewound, options, None, progress)

                summary = _converge(run, blueprint, again, summary)
    finally:
        run.close()
        _snapshot(ws, journal)
    ran_dry = until is None and summary.stop_reason is None and not summary.interrupted
    if (
        ran_dry
        and not run.missing
        and settled(ws.load_results(), ws.root, convergence=run.convergence)
    ):
        _mark(ws, journal)
    return summary


def _converge(
    run: OpenRun, blueprint: Blueprint, loop: Callable[[Results], Summary], summary: Summary
) -> Summary:
    """The final convergence review (engine.converge): asked once per check, applied once.
    A review the provider or the budget stopped stays pending: the check is unfinished."""
    from paperlint.blueprint.graph import graph_of
    from paperlint.engine import converge
    from paperlint.records import convergence
    from paperlint.records.events import ConvergenceReviewed

    ctx, journal = run.ctx, run.journal
    ws = ctx.ws
    state = convergence.read_state(ws.root)
    if state is None or convergence.is_pending(state):
        results = ws.load_results()
        if not converge.ready(results):
            return summary
        refusal = run.policy.budget.refusal(journal.spend)
        if refusal is not None:
            reviews = state.reviews if state else []
            why = f"the budget is spent ({refusal}); give resume a larger --max-calls/--max-cost"
            state = convergence.ConvergenceState(status="pending", reason=why, reviews=reviews)
        else:
            graph = graph_of(blueprint)
            state = converge.review(
                ctx,
                results,
                list(graph.nodes),
                converge.combiner(graph),
                answered=state.reviews if state else (),
                keep=lambda partial: convergence.write_state(ws.root, partial),
            )
        convergence.write_state(ws.root, state)
        combined = state.combined
        event = ConvergenceReviewed(
            status=state.status,
            reason=state.reason,
            flagged=list(combined.flagged) if combined else [],
            regate=state.regate,
        )
        journal.emit(event)
    if state.status == "pending":
        note = (
            f"the final convergence review is pending: {state.reason}; "
            f"{typed('paperlint', 'resume', ws.root)} asks it again"
        )
        return replace(summary, review_pending=True, notes=[*summary.notes, note])
    if state.status != "done" or not state.regate or state.applied:
        return summary
    results = ws.load_results()
    if not convergence.was_applied(results, state):
        _keep_before_regate(ws, state.regate)
        write_results(ws, convergence.rewound(results, state))
    convergence.write_state(ws.root, state.model_copy(update={"applied": True}))
    return loop(ws.load_results())


def _keep_before_regate(ws: Workspace, regate: list[str]) -> None:
    """The records and audit folders a re-gate will write over, kept under
    `snapshots/convergence/` (the attempt numbers start again at 1)."""
    folder = ws.snapshots / "convergence"
    for rid in regate:
        source = ws.audit_dir(rid)
        if source.is_dir():
            shutil.copytree(source, folder / "audits" / source.name, dirs_exist_ok=True)
    write_text_atomic(folder / ws.results.name, ws.results.read_text(encoding="utf-8"))
    if ws.state_dir.is_dir():  # the engine state results.json names (records/state.py)
        shutil.copytree(ws.state_dir, folder / ws.state_dir.name, dirs_exist_ok=True)


def learning_events(ws: Workspace) -> list[BaseEvent]:
    """What a check took from the user's library and run record at its start, as events."""
    from paperlint.records.events import LibraryOffered, StrategyChosen
    from paperlint.records.learning import read_offer, read_strategies

    offered = read_offer(ws.root)
    plan = read_strategies(ws.root)
    events: list[BaseEvent] = [
        StrategyChosen(
            result=rid,
            strategy=c.strategy,
            kind=c.kind,
            phase=c.phase,
            reason=c.reason,
            seed=plan.seed,
        )
        for rid, c in plan.choices.items()
    ]
    if offered.lemmas or offered.skipped:
        lemmas = [m.name for m in offered.lemmas]
        events.append(LibraryOffered(lemmas=lemmas, skipped=list(offered.skipped)))
    return events


def _loop(
    run: OpenRun,
    results: Results,
    options: RunOptions,
    until: str | None,
    progress: Progress | None,
) -> Summary:
    """The serial loop at one job on threads; else the scheduler with its runner and workers."""
    from paperlint.engine.run import run_loop

    ctx, policy, journal = run.ctx, run.policy, run.journal
    if options.jobs <= 1 and options.executor == "threads":
        return run_loop(ctx, results, policy, journal, until=until, progress=progress)
    if options.executor == "ray":
        from paperlint.engine.ray_executor import ray_run

        return ray_run(run, results, options, until, progress)
    pool = worker_pool(run.lean, run.journal.emit, options.jobs)
    try:
        return run_loop(
            ctx,
            results,
            policy,
            journal,
            until=until,
            progress=progress,
            jobs=options.jobs,
            pool=pool,
        )
    finally:
        pool.close()


def worker_pool(lean: LeanEdge, emit: Callable[[BaseEvent], None], jobs: int) -> Pool:
    """The Lean workers of a parallel run (or of one Ray action actor): a pool of warm REPLs,
    each replacement logged to `emit`, or the one shared verifier."""
    from paperlint.lean.pool import SharedVerifier, VerifierPool

    if lean.new_worker is None:
        return SharedVerifier(lean.verifier)

    def replaced(reason: str) -> None:
        emit(LeanRestart(reason=reason, rss_mb=0))

    return VerifierPool(lean.new_worker, jobs, first=lean.verifier, on_replace=replaced)


def _snapshot(ws: Workspace, journal: Journal) -> None:
    """A checkpoint of the records at the end of every run (docs/design.md §3 `snapshots/`)."""
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
    from paperlint.engine.apply import unfinished

    reason = UnfinishedReason(missing[0][0])
    detail = "; ".join(text for _, text in missing)
    updated = [
        unfinished(r, reason, detail) if r.verdict_bearing and is_open(r) else r
        for r in results.results
    ]
    new = results.model_copy(update={"results": updated})
    write_results(ws, new)
    summary = summarise(new, workspace=str(ws.root), stop_reason=reason.value)
    journal.emit(RunFinished(exit_code=int(summary.exit_code), summary=summary.counts))
    return replace(summary, notes=[text for _, text in missing])

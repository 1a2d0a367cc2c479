"""`check` and `resume`: set up a workspace, build the edges, run the loop, write the report."""

from __future__ import annotations

import logging
import shutil
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from paperlint import __version__
from paperlint.agents.prompts import template_hashes
from paperlint.blueprint.build import build_blueprint
from paperlint.blueprint.model import Blueprint
from paperlint.config import Config, dump_config_toml, load_snapshot
from paperlint.engine.apply import unfinished
from paperlint.engine.backends import (
    ROLES,
    Backends,
    EdgeOptions,
    charge_request,
    make_backends,
    uses_tool_loop,
)
from paperlint.engine.context import EngineContext, Settings
from paperlint.engine.executors import RunOptions
from paperlint.engine.plan import Policy, is_open
from paperlint.engine.run import Progress, run_loop, run_started_event
from paperlint.engine.summary import Summary, summarise
from paperlint.errors import InputError
from paperlint.lean import compose
from paperlint.lean.pool import Pool
from paperlint.lean.verifier import Verifier
from paperlint.preflight.model import Inventory
from paperlint.prover.loop import LoopBudget
from paperlint.records import WorkspaceLock, read_record, write_record
from paperlint.records.initial import initial_results, is_verdict_bearing
from paperlint.records.journal import Journal
from paperlint.records.layout import transitive_deps
from paperlint.records.learning import (
    Offered,
    StrategyPlan,
    read_offer,
    read_strategies,
    write_offer,
    write_strategies,
)
from paperlint.records.migrate import read_results
from paperlint.records.results import (
    Results,
    UnfinishedReason,
)
from paperlint.records.spend import Budget
from paperlint.records.workspace import (
    Workspace,
    default_workdir,
    keep_sources,
    open_workspace,
    write_results,
)
from paperlint.reports import write_report
from paperlint.store import write_bytes_atomic, write_text_atomic

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
    run: RunOptions = RunOptions()
    """`--jobs/--executor`; the CLI's default jobs is `paperlint.lean.pool.default_jobs()`."""


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
        write_offer(ws.root, library_offer(request.config))
        write_strategies(ws.root, strategy_plan(request.config, inventory))
        results = initial_results(inventory, blueprint, backends.replay_parts, paper.name)
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
            request.run,
        )
    record_run(request.config, ws.root)
    if request.report:
        write_report(ws.root, templates=template_hashes())
    return summary


def record_run(config: Config, folder: Path) -> None:
    """Append the check's outcomes to the per-user run record (`paperlint runs`); a record that
    cannot be written never fails the check: the workspace keeps everything (`runs add`)."""
    if not config.learning.record_runs:
        return
    from paperlint.learning.runrecord import record_check
    from paperlint.learning.userdata import user_data_dir

    try:
        record_check(user_data_dir(), folder)
    except (InputError, OSError) as exc:
        log.warning(
            "the run record was not updated (%s); `paperlint runs add %s` adds it", exc, folder
        )


def strategy_plan(config: Config, inventory: Inventory) -> StrategyPlan:
    """A strategy per verdict-bearing result from the run record (`[learning] strategy`)."""
    from paperlint.learning.runrecord import read_entries
    from paperlint.learning.strategy import ChooserSettings, baseline_plan, plan_strategies
    from paperlint.learning.userdata import user_data_dir

    learning = config.learning
    settings = ChooserSettings(seed=learning.strategy_seed, min_trials=learning.strategy_min_trials)
    results = [(r.id, r.kind) for r in inventory.results if is_verdict_bearing(r)]
    if learning.strategy == "baseline":
        return baseline_plan(results, settings.seed)
    try:
        entries = read_entries(user_data_dir()).entries
    except OSError as exc:
        log.warning("the run record is unreadable (%s); every result gets the baseline", exc)
        entries = []
    return plan_strategies(entries, results, settings)


def library_offer(config: Config) -> Offered:
    """The promoted lemmas this check offers its prover, taken from the user's library now."""
    if not config.learning.library:
        return Offered()
    from paperlint.learning.library import Library, current_pins, library_dir
    from paperlint.learning.offer import take_offer
    from paperlint.learning.userdata import user_data_dir

    library = Library(library_dir(user_data_dir()))
    if not library.manifest_path.is_file():
        return Offered()
    return take_offer(library, current_pins(_project_dir(config)))


def _project_dir(config: Config) -> Path | None:
    return Path(config.lean.project_dir) if config.lean.project_dir else None


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
    config, extra = load_snapshot(ws.config.read_text(encoding="utf-8"))
    if budget:
        config = config.with_overrides(**budget)
    table = extra.get("run", {})
    replay_dir = table.get("replay_dir") or None
    edges = EdgeOptions(
        record=Path(table["record_dir"]) if table.get("record_dir") else None,
        lean_replay=Path(table["lean_replay_dir"]) if table.get("lean_replay_dir") else None,
    )
    if budget and not replay_dir and not table.get("allow_unpriced"):
        refuse_unpriced(config)
    with WorkspaceLock(ws.root):
        inventory = read_record(ws.inventory, Inventory)
        blueprint = read_record(ws.blueprint, Blueprint)
        results = ws.load_results()
        replay = Path(replay_dir) if replay_dir else None
        backends = make_backends(config, replay, verifier=verifier, edges=edges)
        summary = _run(
            ws,
            inventory,
            blueprint,
            config,
            backends,
            results,
            "resume",
            until,
            progress,
            run or RunOptions(),
        )
    record_run(config, ws.root)
    if report:
        write_report(ws.root, templates=template_hashes())
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
    if config.models.second_drafter:
        versions["model_second_drafter"] = config.models.second_drafter
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
    options: RunOptions,
) -> Summary:
    journal = Journal(ws.events())
    ctx = build_context(ws, inventory, blueprint, config, backends, journal)
    journal.emit(run_started_event(command, list(backends.replay_parts)))
    if command == "check":
        for event in learning_events(ws):
            journal.emit(event)
    policy = policy_of(config, backends)
    missing = backends.missing()
    try:
        if missing:
            summary = _cannot_run(ws, results, journal, missing)
        else:
            summary = _loop(ctx, results, policy, journal, backends, options, until, progress)
            if until is None and config.learning.convergence and not summary.interrupted:

                def again(rewound: Results) -> Summary:
                    return _loop(ctx, rewound, policy, journal, backends, options, None, progress)

                summary = _converge(ctx, blueprint, policy, journal, again) or summary
    finally:
        backends.verifier.close()
        _snapshot(ws, journal)
    return summary


def _converge(
    ctx: EngineContext,
    blueprint: Blueprint,
    policy: Policy,
    journal: Journal,
    loop: Callable[[Results], Summary],
) -> Summary | None:
    """The final convergence review (engine.converge): asked once per check, applied once."""
    from paperlint.blueprint.graph import graph_of
    from paperlint.engine import converge
    from paperlint.records import convergence
    from paperlint.records.events import ConvergenceReviewed

    ws = ctx.ws
    state = convergence.read_state(ws.root)
    if state is None or state.status == "asking":
        results = ws.load_results()
        if not converge.ready(results):
            return None
        if policy.budget.refusal(journal.spend) is not None:
            state = convergence.ConvergenceState(status="not_run", reason="the budget is spent")
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
        journal.emit(event.as_event())
    if state.status != "done" or not state.regate or state.applied:
        return None
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


def learning_events(ws: Workspace) -> list[dict[str, Any]]:
    """What a check took from the user's library and run record at its start, as events."""
    from paperlint.records.events import LibraryOffered, StrategyChosen

    offered = read_offer(ws.root)
    plan = read_strategies(ws.root)
    events = [
        StrategyChosen(
            result=rid,
            strategy=c.strategy,
            kind=c.kind,
            phase=c.phase,
            reason=c.reason,
            seed=plan.seed,
        ).as_event()
        for rid, c in plan.choices.items()
    ]
    if offered.lemmas or offered.skipped:
        lemmas = [m.name for m in offered.lemmas]
        events.append(LibraryOffered(lemmas=lemmas, skipped=list(offered.skipped)).as_event())
    return events


def _loop(
    ctx: EngineContext,
    results: Results,
    policy: Policy,
    journal: Journal,
    backends: Backends,
    options: RunOptions,
    until: str | None,
    progress: Progress | None,
) -> Summary:
    """The serial loop at one job on threads; else the scheduler with its runner and workers."""
    if options.jobs <= 1 and options.executor == "threads":
        return run_loop(ctx, results, policy, journal, until=until, progress=progress)
    if options.executor == "ray":
        from paperlint.engine.ray_executor import ray_run

        return ray_run(ctx, results, policy, journal, backends, options, until, progress)
    pool = worker_pool(backends, journal, options.jobs)
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


def worker_pool(backends: Backends, journal: Journal, jobs: int) -> Pool:
    """The Lean workers of a parallel run: a pool of warm REPLs, or the one shared verifier."""
    from paperlint.engine.backends import report_restarts
    from paperlint.lean.pool import SharedVerifier, VerifierPool

    factory = backends.new_verifier
    if factory is None:
        return SharedVerifier(backends.verifier)

    def start() -> Verifier:
        worker = factory()
        report_restarts(worker, journal.emit)
        return worker

    def replaced(reason: str) -> None:
        journal.emit({"type": "lean_restart", "reason": reason, "rss_mb": 0})

    return VerifierPool(start, jobs, first=backends.verifier, on_replace=replaced)


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
        double_draft=config.faithfulness.double_draft,
        budget=Budget(max_calls=budget.max_calls, max_cost_usd=budget.max_cost_usd),
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
        automation_first=config.automation.enabled,
        automation_timeout_s=config.automation.timeout_s,
        library=read_offer(ws.root).lemmas,
        no_automation=frozenset(
            rid
            for rid, c in read_strategies(ws.root).choices.items()
            if c.strategy == "no-automation"
        ),
        library_rungs=config.learning.library_rungs,
        tool_loop=not backends.missing() and uses_tool_loop(config, backends),
        loop_budget=LoopBudget(
            max_turns=config.prover.max_turns,
            max_tool_calls=config.prover.max_tool_calls,
            max_wall_s=config.prover.max_wall_s,
        ),
        minimal_hypotheses=config.faithfulness.minimal_hypotheses,
    )
    return EngineContext(
        ws=ws,
        inventory=inventory,
        order=order,
        lean_names={e.id: e.lean_name for e in blueprint.entries},
        modules={e.id: e.lean_file for e in blueprint.entries},
        deps=transitive_deps(blueprint, order),
        settings=settings,
        ask=backends.ask_with(journal.emit, lambda: journal.spend, journal.lock),
        verifier=backends.verifier,
        emit=journal.emit,
        tools=backends.tools if settings.tool_loop else None,
        charge=lambda request: _charge_turn(config, journal, request),
    )


def _charge_turn(config: Config, journal: Journal, request: dict[str, Any]) -> None:
    """A prover turn beyond its action's first: checked against the budget and charged, as one
    step under the journal's lock (no two actions spend one last call)."""
    with journal.lock:
        charge_request(config, lambda: journal.spend, journal.emit, request)

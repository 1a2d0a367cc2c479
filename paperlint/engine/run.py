"""The engine loop: plan (pure) → charge → execute (effects) → apply (pure) → commit (atomic).

Because `plan` reads only the records, a crash between the charge and the commit makes the
next run plan the same action again: at most one repeated call per crash, nothing else redone.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING

from paperlint.engine.actions import Action, Failure, Progress
from paperlint.engine.apply import apply, unfinished
from paperlint.engine.context import EngineContext
from paperlint.engine.execute import execute
from paperlint.engine.plan import Policy, Stop, is_open, plan
from paperlint.engine.steps import REGISTRY, Failed, StepOutcome
from paperlint.engine.summary import Summary, summarise
from paperlint.records.events import (
    ActionFinished,
    ActionRef,
    ActionStarted,
    Interrupted,
    RunFinished,
    StageChange,
)
from paperlint.records.journal import Journal
from paperlint.records.results import Results, Stage, UnfinishedReason, Verdict
from paperlint.records.workspace import write_results

if TYPE_CHECKING:
    from paperlint.engine.scheduler import Runner
    from paperlint.lean.pool import Pool

log = logging.getLogger(__name__)

STAGE_ORDER: tuple[Stage, ...] = (
    Stage.PENDING,
    Stage.PLANNED,
    Stage.DRAFTED,
    Stage.GATE_BLOCKED,  # sent back to the drafter: not gated yet
    Stage.GATED,
    Stage.PROVING,
    Stage.AUDITED,
    Stage.DONE,
)
"""The order in which a result's stage advances (`--until STAGE`)."""


def before(until: str | None, action: Action) -> bool:
    """`--until STAGE`: whether `action` may run, i.e. its step works toward STAGE or an earlier
    one (each step names its stage, `Step.stage`); a result whose next action goes beyond
    waits there. None: every action may run."""
    if until is None:
        return True
    goal = STAGE_ORDER.index(REGISTRY[action.kind].stage)
    return goal <= STAGE_ORDER.index(Stage(until))


def run_loop(
    ctx: EngineContext,
    results: Results,
    policy: Policy,
    journal: Journal,
    *,
    until: str | None = None,
    progress: Progress | None = None,
    jobs: int = 1,
    runner: Runner | None = None,
    pool: Pool | None = None,
) -> Summary:
    if jobs > 1 or runner is not None:
        from paperlint.engine.scheduler import run_parallel

        return run_parallel(
            ctx,
            results,
            policy,
            journal,
            jobs=jobs,
            until=until,
            progress=progress,
            runner=runner,
            pool=pool,
        )
    progress = progress or Progress()
    held: set[str] = set()  # `--until`: results that reached the stage and wait there
    try:
        while True:
            order = [rid for rid in ctx.order if rid not in held]
            decision = plan(results, order, policy, journal.spend)
            if isinstance(decision, Stop) and held and decision.reason is None:
                results = finish_run(ctx, results, journal, None, until=until)
                return summarise(results, workspace=str(ctx.ws.root), stop_reason=f"until {until}")
            if isinstance(decision, Stop):
                results = finish_run(ctx, results, journal, decision.reason)
                return summarise(results, workspace=str(ctx.ws.root), stop_reason=_reason(decision))
            if not before(until, decision):
                held.add(decision.result)
                continue
            progress.on_action(decision, results)
            results = _step(ctx, results, policy, journal, decision)
            if stop_run(results, decision):
                stopped = results.get(decision.result)
                why = [stopped.unfinished.detail] if stopped and stopped.unfinished else []
                results = finish_run(ctx, results, journal, None)
                summary = summarise(
                    results, workspace=str(ctx.ws.root), stop_reason="edge unavailable"
                )
                return replace(summary, notes=[*summary.notes, *why])
    except KeyboardInterrupt:
        results = interrupt_run(ctx, results, journal)
        return summarise(results, workspace=str(ctx.ws.root), interrupted=True)


def _reason(stop: Stop) -> str | None:
    return stop.reason.value if stop.reason else None


def _step(
    ctx: EngineContext, results: Results, policy: Policy, journal: Journal, action: Action
) -> Results:
    journal.emit(started_event(action))
    outcome = execute(ctx, results, action)
    new = apply(results, outcome, policy)
    # The end of the action is one line, logged before the records are committed: a crash
    # between the two makes `resume` redo the action, never leaves a verdict unlogged.
    journal.emit(finished_event(action, outcome, results, new))
    write_results(ctx.ws, new)  # evidence is on disk already; the state goes last
    return new


def started_event(action: Action) -> ActionStarted:
    """The start of an action, charging its first request before it is made."""
    return ActionStarted(
        action=ActionRef.model_validate(action.model_dump(mode="json")), charge={"calls": 1}
    )


def finished_event(
    action: Action, outcome: StepOutcome, before: Results, after: Results
) -> ActionFinished:
    old, new = before.get(action.result), after.get(action.result)
    stage = (
        StageChange(from_=old.stage, to=new.stage)
        if old and new and old.stage != new.stage
        else None
    )
    changed = new is not None and new.verdict and (not old or old.verdict != new.verdict)
    return ActionFinished(
        action=ActionRef.model_validate(action.model_dump(mode="json")),
        ok=not isinstance(outcome, Failed),
        result=action.result,
        stage=stage,
        verdict=new.verdict if changed and new else None,
        class_=new.issue.class_ if changed and new and new.issue else None,
        reason=new.unfinished.reason if changed and new and new.unfinished else None,
    )


def stop_run(results: Results, action: Action) -> bool:
    """A missing model or Lean stops the whole run: every other result would fail the same way."""
    record = results.get(action.result)
    return bool(
        record
        and record.verdict is Verdict.UNFINISHED
        and record.unfinished
        and record.unfinished.reason
        in (UnfinishedReason.MODEL_UNAVAILABLE, UnfinishedReason.LEAN_UNAVAILABLE)
    )


def finish_run(
    ctx: EngineContext,
    results: Results,
    journal: Journal,
    reason: UnfinishedReason | None,
    *,
    until: str | None = None,
) -> Results:
    """Give every result still open a verdict: `unfinished`, with the reason the run stopped."""
    edge = _edge_failure(results)
    updated = []
    for record in results.results:
        if not record.verdict_bearing or not is_open(record) or until:
            updated.append(record)
            continue
        why = reason or edge
        if why is None and record.verdict is None:
            why = UnfinishedReason.BUDGET_EXHAUSTED
        if record.verdict is Verdict.UNFINISHED and record.unfinished and why is None:
            updated.append(record)
            continue
        detail = _detail(why, record.stage)
        updated.append(unfinished(record, why or UnfinishedReason.BUDGET_EXHAUSTED, detail))
    new = results.model_copy(update={"results": updated})
    write_results(ctx.ws, new)
    summary = summarise(new)
    journal.emit(RunFinished(exit_code=int(summary.exit_code), summary=summary.counts))
    return new


def _edge_failure(results: Results) -> UnfinishedReason | None:
    for record in results.results:
        if record.unfinished and record.unfinished.reason in (
            UnfinishedReason.MODEL_UNAVAILABLE,
            UnfinishedReason.LEAN_UNAVAILABLE,
        ):
            return record.unfinished.reason
    return None


def _detail(reason: UnfinishedReason | None, stage: Stage) -> str:
    texts = {
        UnfinishedReason.BUDGET_EXHAUSTED: "the run's budget was spent",
        UnfinishedReason.MODEL_UNAVAILABLE: "no language model could be asked",
        UnfinishedReason.LEAN_UNAVAILABLE: "Lean could not be run",
    }
    base = texts.get(reason, "the run stopped") if reason else "the run stopped"
    return f"{base} (reached stage {stage.value}); `paperlint resume` continues"


def interrupt_run(ctx: EngineContext, results: Results, journal: Journal) -> Results:
    updated = [
        unfinished(
            r, UnfinishedReason.INTERRUPTED, "interrupted (^C); `paperlint resume` continues"
        )
        if r.verdict_bearing and is_open(r) and r.verdict is None
        else r
        for r in results.results
    ]
    new = results.model_copy(update={"results": updated})
    write_results(ctx.ws, new)
    journal.emit(Interrupted())
    return new


__all__ = ["Failure", "Progress", "run_loop"]

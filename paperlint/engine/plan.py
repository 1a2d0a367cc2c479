"""The queue policy, as a pure function of the records: which action comes next.

Outer queue: results in dependency order (definitions and assumptions first). Inner queue: the
result's obligations, one active at a time. Retry budgets, escalation and the hand-off of an
exhausted obligation to the issue checker all live here, where they are testable without a
model or Lean.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from paperlint.domain import INPUT_KINDS
from paperlint.engine.actions import Action, ActionKind
from paperlint.records.results import ResultRecord, Results, Stage, UnfinishedReason, Verdict
from paperlint.records.work import Obligation

# Unfinished reasons a later run may pick up again (more budget, Lean installed, a model set).
SOFT_REASONS = {
    UnfinishedReason.BUDGET_EXHAUSTED,
    UnfinishedReason.LEAN_UNAVAILABLE,
    UnfinishedReason.MODEL_UNAVAILABLE,
    UnfinishedReason.INTERRUPTED,
}


@dataclass(frozen=True)
class Policy:
    prover_ladder: tuple[str, ...]
    prover_attempts: int = 4
    escalate_after: int = 2
    draft_rounds: int = 2
    max_calls: int | None = None
    max_cost_usd: float | None = None


@dataclass(frozen=True)
class Spend:
    calls: int = 0
    cost_usd: float = 0.0


@dataclass(frozen=True)
class Stop:
    reason: UnfinishedReason | None  # None: every result has a verdict


def is_open(record: ResultRecord) -> bool:
    """Still to be worked on: no verdict yet, or a soft `unfinished` a new run may resume."""
    if record.stage is Stage.DONE and record.verdict is not Verdict.UNFINISHED:
        return False
    if record.verdict is Verdict.UNFINISHED:
        return record.unfinished is not None and record.unfinished.reason in SOFT_REASONS
    return True


def budget_left(policy: Policy, spend: Spend) -> bool:
    if policy.max_calls is not None and spend.calls >= policy.max_calls:
        return False
    return not (policy.max_cost_usd is not None and spend.cost_usd >= policy.max_cost_usd)


def plan(results: Results, order: list[str], policy: Policy, spend: Spend) -> Action | Stop:
    """The one next action (`ready(...)[0]` with no dependency gate): the serial queue."""
    decision = ready(results, order, policy, spend, limit=1)
    return decision[0] if isinstance(decision, list) else decision


def ready(
    results: Results,
    order: list[str],
    policy: Policy,
    spend: Spend,
    *,
    deps: Mapping[str, Sequence[str]] | None = None,
    busy: Collection[str] = (),
    limit: int | None = None,
) -> list[Action] | Stop:
    """Every action that may start now, in queue order; `Stop` when none ever will.

    One action per result (its active obligation); `busy` are results with an action in
    flight. With `deps`, a result waits while any of its dependencies still has work to do,
    because its inputs read their accepted Lean: so whatever runs in parallel reads the same
    records as the serial queue would, and the final records do not depend on the order in
    which actions finish. `[]` means "wait for an action in flight". No budget left with
    work still to do is `Stop(budget_exhausted)`; the caller lets what is in flight finish.
    `limit` ends the scan once that many are found (the serial queue needs one).
    """
    by_id = {r.id: r for r in results.results}
    working: set[str] = set()  # results with work left (in flight, waiting or ready)
    found: list[Action] = []
    for result_id in order:
        record = by_id.get(result_id)
        if record is None or not is_open(record):
            continue
        action = next_action(record, policy)
        if action is None:
            continue
        blocked = result_id in busy or any(d in working for d in (deps or {}).get(result_id, ()))
        working.add(result_id)
        if not blocked:
            if not budget_left(policy, spend):
                return Stop(UnfinishedReason.BUDGET_EXHAUSTED)
            found.append(action)
            if limit is not None and len(found) >= limit:
                break
    if not found and not working:
        return Stop(None)
    return found


def next_action(record: ResultRecord, policy: Policy) -> Action | None:
    """The one next action for a result, or None when `apply` has settled it."""
    work = record.work
    rid = record.id
    statement_only = record.kind in INPUT_KINDS
    if not record.verdict_bearing and not statement_only:
        return None
    if work.plan is None and not statement_only:
        return Action(kind=ActionKind.PLAN, result=rid)
    if work.fingerprint is None:
        return _statement_action(record, policy)
    if statement_only:
        return None
    return _after_gate(record, policy)


def _statement_action(record: ResultRecord, policy: Policy) -> Action | None:
    work = record.work
    if work.draft is None or work.draft_feedback is not None:
        if work.draft_rounds >= policy.draft_rounds:
            return None  # apply() records statement_not_approved / translation_blocked
        return Action(kind=ActionKind.DRAFT, result=record.id, attempt=work.draft_rounds + 1)
    return Action(kind=ActionKind.GATE, result=record.id, attempt=len(work.gates) + 1)


def _after_gate(record: ResultRecord, policy: Policy) -> Action | None:
    work = record.work
    rid = record.id
    if work.suspicion is not None:
        if work.ruling is None:
            return Action(kind=ActionKind.CHECK_ISSUE, result=rid)
        if work.ruling.is_issue and work.review is None and _ruling_checkable(record):
            return Action(kind=ActionKind.REVIEW_ISSUE, result=rid)
        return None
    if work.draft is not None and work.draft.ambiguity and work.ruling is None:
        return Action(kind=ActionKind.CHECK_ISSUE, result=rid)
    active = _active_obligation(work.obligations)
    if active is not None:
        attempt = active.attempts + 1
        return Action(
            kind=ActionKind.PROVE,
            result=rid,
            obligation=active.id,
            attempt=attempt,
            model=prover_model(policy, attempt),
        )
    if all(o.status == "proved" for o in work.obligations) and work.final is None:
        return Action(kind=ActionKind.AUDIT, result=rid)
    return None


def _ruling_checkable(record: ResultRecord) -> bool:
    """An ERROR needs a compiled counterexample before anyone reviews it."""
    ruling = record.work.ruling
    if ruling is None or ruling.issue_class != "ERROR":
        return True
    check = record.work.counterexample
    return check is not None and check.accepted and check.axioms_ok


def _active_obligation(obligations: list[Obligation]) -> Obligation | None:
    return next((o for o in obligations if o.status == "open"), None)


def prover_model(policy: Policy, attempt: int) -> str | None:
    """Escalate along the ladder every `escalate_after` failed attempts."""
    if not policy.prover_ladder:
        return None
    rung = min((attempt - 1) // max(policy.escalate_after, 1), len(policy.prover_ladder) - 1)
    return policy.prover_ladder[rung]

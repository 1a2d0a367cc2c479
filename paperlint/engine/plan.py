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
from paperlint.engine.actions import Action
from paperlint.engine.policy import Policy, prover_model
from paperlint.engine.settled import SOFT_REASONS, is_open
from paperlint.engine.steps import REGISTRY
from paperlint.records.results import ResultRecord, Results, UnfinishedReason
from paperlint.records.spend import Spend

__all__ = ["SOFT_REASONS", "Policy", "is_open", "prover_model"]  # re-exported


@dataclass(frozen=True)
class Stop:
    reason: UnfinishedReason | None  # None: every result has a verdict


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
        if record is None:
            continue
        if is_open(record):
            action = next_action(record, policy)
        else:
            action = revisit_action(record, results, policy)
        if action is None:
            continue
        blocked = result_id in busy or any(d in working for d in (deps or {}).get(result_id, ()))
        working.add(result_id)
        if not blocked:
            if policy.budget.refusal(spend) is not None:
                return Stop(UnfinishedReason.BUDGET_EXHAUSTED)
            found.append(action)
            if limit is not None and len(found) >= limit:
                break
    if not found and not working:
        return Stop(None)
    return found


def planned_for(
    results: Results,
    order: Sequence[str],
    result: str,
    policy: Policy,
    spend: Spend,
    *,
    deps: Mapping[str, Sequence[str]] | None = None,
    busy: Collection[str] = (),
) -> Action | None:
    """The action `ready` would start now on `result`, or None (it waits, or has none). `ready`
    decides a result from the results before it in `order` (its dependencies come first), so
    the scan stops there."""
    if result not in order:
        return None
    upto = list(order[: list(order).index(result) + 1])
    decision = ready(results, upto, policy, spend, deps=deps, busy=busy)
    if isinstance(decision, Stop):
        return None
    return next((a for a in decision if a.result == result), None)


def revisit_action(record: ResultRecord, results: Results, policy: Policy) -> Action | None:
    """An action on a settled result that other records call for (a reconnection, issue #14):
    the first registered step with a `revisit` that answers. Its dependents wait for it, as
    for any action, so the records stay the serial queue's for any number of jobs."""
    if not record.verdict_bearing:
        return None
    for step in REGISTRY.values():
        action = step.revisit(record, results, policy) if step.revisit else None
        if action is not None:
            return action
    return None


def next_action(record: ResultRecord, policy: Policy) -> Action | None:
    """The one next action for a result, or None when `apply` has settled it: the first step
    of the registry that says it is ready (each step's `ready` is in its module)."""
    if not record.verdict_bearing and record.kind not in INPUT_KINDS:
        return None
    for step in REGISTRY.values():
        action = step.ready(record, policy)
        if action is not None:
            return action
    return None

"""What every step shares: the `Step` shape, the view its inputs read, and the record helpers
its `apply` uses. Pure: no effects here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from pydantic import BaseModel, ConfigDict

from paperlint.domain import INPUT_KINDS, Role
from paperlint.engine.actions import Action, Failure
from paperlint.engine.context import EngineContext
from paperlint.engine.policy import Policy
from paperlint.records.results import (
    ResultRecord,
    Results,
    Stage,
    Unfinished,
    UnfinishedReason,
    Verdict,
)
from paperlint.records.slots import draft_of, fingerprint_of, plan_of, ruling, suspected
from paperlint.records.work import Slot

In = TypeVar("In")  # the step's inputs
Out = TypeVar("Out", bound="StepOutcome")  # the step's outcome


@dataclass(frozen=True)
class View:
    """What a step's `inputs` may read besides its own record: the action being taken, the
    other records, and the paper and evidence already on disk (read, never written)."""

    ctx: EngineContext
    results: Results
    action: Action


P = TypeVar("P", bound=BaseModel)


@dataclass(frozen=True)
class Given(Generic[P]):
    """A step's inputs: the action, the typed prompt inputs (`paperlint.agents.inputs`)."""

    action: Action
    prompt: P


class StepOutcome(BaseModel):
    """What `run` found; every step's outcome names the action it answers."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    action: Action


class Failed(StepOutcome):
    """An edge failed (no model, an invalid answer, no Lean): the step produced nothing."""

    failure: Failure
    detail: str = ""


@dataclass(frozen=True)
class Step(Generic[In, Out]):
    """One action: when it is due, who does it, what it is given, what it does, how the
    records change.

    `ready(record, policy)` is pure: the action this step would take next on the record, or
    None (the queue, `plan.next_action`, asks every registered step in turn);
    `inputs(record, view)` is pure; `run(ctx, record, inputs)` has the effects (one agent call
    and its Lean checks; evidence written before it returns); `apply(record, outcome, policy)`
    is pure and is the only place a verdict is decided.
    """

    kind: str  # the action kind it answers (`ActionKind` names the built-in ones)
    role: Role | None
    stage: Stage  # the stage its action works toward (`--until STAGE` runs the steps up to it)
    ready: Callable[[ResultRecord, Policy], Action | None]
    inputs: Callable[[ResultRecord, View], In]
    run: Callable[[EngineContext, ResultRecord, In], Out]
    apply: Callable[[ResultRecord, Out, Policy], ResultRecord]
    # A step that revisits a settled result because of other records (a reconnection reads
    # the predecessors' verdicts): `revisit(record, results, policy)`, pure, asked by `plan`
    # for results that `ready` no longer concerns (done, not open).
    revisit: Callable[[ResultRecord, Results, Policy], Action | None] | None = None
    # The step's own working state (`paperlint.records.work.Slot`, its `KIND` the step's
    # kind): its type, the agent outputs stored as references, what a reset keeps. Other
    # steps read it only through the accessor its module defines.
    slot: type[Slot] | None = None


AnyStep = Step[Any, Any]


# --- readiness helpers for `ready` --------------------------------------------------------------


def statement_only(record: ResultRecord) -> bool:
    """A definition or an assumption: formalised and gated, never proved."""
    return record.kind in INPUT_KINDS


def gated(record: ResultRecord) -> bool:
    """A result to prove, routed, whose statement passed the gate: proof work may start."""
    work = record.work
    planned = plan_of(work) is not None
    return fingerprint_of(work) is not None and planned and not statement_only(record)


def in_issue_review(record: ResultRecord) -> bool:
    """A suspected issue, or an ambiguity not yet ruled on: no proof work until it is settled."""
    work = record.work
    draft = draft_of(work)
    ambiguous = draft is not None and bool(draft.ambiguity) and ruling(work) is None
    return suspected(record) is not None or ambiguous


# --- record helpers for `apply` -----------------------------------------------------------------


def unfinished(
    record: ResultRecord, reason: UnfinishedReason, detail: str, *, stage: Stage | None = None
) -> ResultRecord:
    return evolve(
        record,
        stage=stage or record.stage,
        verdict=Verdict.UNFINISHED,
        unfinished=Unfinished(reason=reason, detail=detail),
    )


_FAILURE_REASONS = {
    Failure.MODEL_UNAVAILABLE: UnfinishedReason.MODEL_UNAVAILABLE,
    Failure.INVALID_MODEL_OUTPUT: UnfinishedReason.INVALID_MODEL_OUTPUT,
    Failure.LEAN_UNAVAILABLE: UnfinishedReason.LEAN_UNAVAILABLE,
    Failure.BUDGET_EXHAUSTED: UnfinishedReason.BUDGET_EXHAUSTED,
}


def apply_failure(record: ResultRecord, outcome: Failed) -> ResultRecord:
    """An edge failure leaves the result unfinished; an invalid answer ends its work."""
    done = Stage.DONE if outcome.failure is Failure.INVALID_MODEL_OUTPUT else None
    return unfinished(record, _FAILURE_REASONS[outcome.failure], outcome.detail, stage=done)


M = TypeVar("M", bound=BaseModel)


def evolve(model: M, **changes: Any) -> M:
    """`model` with `changes`; a misspelt field is an error, not a silently dropped key.

    A result record's `work` (its working state, not a contract field) is set the same way."""
    work = changes.pop("work", None) if isinstance(model, ResultRecord) else None
    unknown = sorted(set(changes) - set(type(model).model_fields))
    if unknown:
        raise TypeError(f"{type(model).__name__} has no field {', '.join(unknown)}")
    copy = model.model_copy(update=changes)
    if isinstance(copy, ResultRecord) and work is not None:
        return cast(M, copy.with_work(work))
    return copy


def reopen(record: ResultRecord, *slots: Slot, **work: Any) -> ResultRecord:
    """Progress was made: clear a soft `unfinished` left by an earlier stop; update `work`
    and put `slots` in their steps' places."""
    new = evolve(record.work, **work)
    for slot in slots:
        new = new.with_slot(slot)
    return evolve(record, verdict=None, unfinished=None, work=new)

"""restate — after a revision, an equivalent restatement keeps its proof (issue #15).

`paperlint revise` sets a verified result's old statement and proof aside when it resets the
result (this step's slot, `SetAside`, keeps it: its reset rule `after_reset`). Once the new
statement is gated, and before any proof search, this step asks Lean (no model) whether the
two statements are equivalent, with the same ladder as the double draft (`faithful.restate`).
If they are, the old proof is carried to the new statement through the forward direction:

    theorem NAME_previous …old statement… := …old proof…
    theorem NAME …new statement… := by
      have h_equiv : (old) → (new) := …
      exact h_equiv NAME_previous …

and that text, accepted by Lean, becomes the main obligation's proof; the audit then builds
it cold like any other proof. Anything short of that leaves the obligation open, and the
prover works as before. The step runs once per reset.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from paperlint.engine.actions import Action, ActionKind
from paperlint.engine.context import EngineContext
from paperlint.engine.policy import Policy
from paperlint.engine.steps.base import (
    Step,
    StepOutcome,
    View,
    evolve,
    gated,
    in_issue_review,
    reopen,
)
from paperlint.engine.steps.effects import base_context, write_json
from paperlint.faithful.restate import check_restatement
from paperlint.lean.compose import context_for
from paperlint.lean.verifier import LeanContext
from paperlint.records import audits
from paperlint.records.events import LeanCheckEvent
from paperlint.records.results import ResultRecord, Stage, Verdict
from paperlint.records.slots import draft_of, obligations_of, proving
from paperlint.records.work import ResetAction, Slot

KIND = ActionKind.RESTATE
FILE = "restatement.json"
SUFFIX = "_previous"


class PreviousProof(BaseModel):
    """A verified result's statement and proof before a revision changed its statement (#15):
    if the new gated statement is equivalent to it in Lean, the proof carries over."""

    model_config = ConfigDict(extra="forbid")

    statement: str  # the gated declaration, `sorry` body
    lean_name: str
    proof: str  # the verified main declaration
    definitions: list[str] = Field(default_factory=list)


class SetAside(Slot):
    """This step's state: the proof a revision set aside, and whether the check ran on it."""

    KIND = KIND

    previous: PreviousProof | None = None
    restated: bool = False

    @classmethod
    def after_reset(
        cls, before: ResultRecord, action: ResetAction, revision: bool
    ) -> SetAside | None:
        """A revision that may change the statement (`re-draft`, `re-gate`) keeps the old
        verified proof (`previous_proof`); the convergence review's re-gate, a `re-prove`
        and the check's own flag keep nothing."""
        if not revision or action == "re-prove":
            return None
        previous = previous_proof(before)
        return None if previous is None else cls(previous=previous)


def state(record: ResultRecord) -> SetAside:
    """The restatement state of `record` (the audit reads whether a proof was carried)."""
    return record.work.slot(SetAside)


def previous_proof(record: ResultRecord) -> PreviousProof | None:
    """A verified result's gated statement and proof, kept through a reset that may change the
    statement: an equivalent restatement keeps its proof (checked in Lean by this step). Only
    a proof without step lemmas is kept (a step's statement is not compared). A result
    already carrying one keeps it until it is verified again."""
    obligations, draft = obligations_of(record.work), draft_of(record.work)
    verified = record.verdict in (Verdict.VERIFIED_CONDITIONAL, Verdict.VERIFIED_UNCONDITIONAL)
    main = [o.proof for o in obligations if o.id == "main" and o.proof]
    if not verified or draft is None or len(obligations) != 1 or not main:
        return state(record).previous
    return PreviousProof(
        statement=draft.statement,
        lean_name=draft.lean_name,
        proof=main[0],
        definitions=list(draft.definitions),
    )


@dataclass(frozen=True)
class RestateInputs:
    action: Action
    previous: PreviousProof
    statement: str  # the new gated statement
    context: LeanContext  # the result's context now (dependencies, its own definitions)
    same_definitions: bool  # the new draft defines what the old one did


class RestateOutcome(StepOutcome):
    proof: str | None = None  # the carried proof, accepted by Lean; None: prove as usual
    record: str  # audits/<id>/restatement.json


def ready(record: ResultRecord, policy: Policy) -> Action | None:
    """Gated after a reset that set a verified proof aside, the main obligation not yet tried,
    no issue under review, and the check not run yet."""
    obligations, own = obligations_of(record.work), state(record)
    if own.previous is None or own.restated or not gated(record) or in_issue_review(record):
        return None
    if [o.id for o in obligations] != ["main"] or obligations[0].attempts:
        return None
    if obligations[0].status != "open":
        return None
    return Action(kind=KIND, result=record.id)


def inputs(record: ResultRecord, view: View) -> RestateInputs:
    draft, previous = draft_of(record.work), state(record).previous
    if previous is None or draft is None:  # `ready` rules this out
        raise ValueError(f"{record.id}: nothing to restate")
    context = base_context(view.ctx, view.results, record)
    same = list(draft.definitions) == list(previous.definitions)
    return RestateInputs(view.action, previous, draft.statement, context, same)


def renamed(declaration: str, old: str, new: str) -> str:
    """The declaration with its own name `old` (the first `theorem old`) renamed to `new`."""
    pattern = re.compile(rf"\b(theorem|lemma)(\s+){re.escape(old)}(?![\w'.])")
    return pattern.sub(lambda m: f"{m[1]}{m[2]}{new}", declaration, count=1)


def run(ctx: EngineContext, record: ResultRecord, given: RestateInputs) -> RestateOutcome:
    previous = given.previous
    old_name = previous.lean_name + SUFFIX
    old_proof = renamed(previous.proof, previous.lean_name, old_name)
    data: dict[str, object] = {
        "schema": audits.RESTATEMENT,
        "result": record.id,
        "old_statement": previous.statement,
        "new_statement": given.statement,
    }
    carried = None
    if not given.same_definitions:
        data["skipped"] = "the result's definitions changed: the old proof is about other objects"
    else:
        context = context_for(given.context.header, [*given.context.accepted, old_proof])
        found = check_restatement(
            ctx.verifier,
            context,
            renamed(previous.statement, previous.lean_name, old_name),
            given.statement,
            old_name=old_name,
            timeout_s=ctx.settings.lean_timeout_s,
        )
        carried = f"{old_proof}\n\n{found.carried_proof}" if found.keeps_proof else None
        data |= {
            "context": context.model_dump(mode="json"),
            "equivalence": found.equivalence.model_dump(mode="json"),
            "carried_proof": found.carried_proof,
            "attempt": found.attempt.model_dump(mode="json") if found.attempt else None,
            "keeps_proof": found.keeps_proof,
        }
        ctx.emit(
            LeanCheckEvent(
                result=record.id,
                obligation="main",
                kind="restatement",
                outcome="carried" if carried else "not_carried",
                code=None,
                checked=sum(a.answered for a in found.equivalence.attempts()),
                duration_s=0.0,
                replay=ctx.verifier.is_replay,
            )
        )
    path = write_json(ctx, ctx.ws.audit_dir(record.id) / FILE, data)
    return RestateOutcome(action=given.action, proof=carried, record=path)


def apply(record: ResultRecord, outcome: RestateOutcome, policy: Policy) -> ResultRecord:
    tried = record.with_work(record.work.with_slot(evolve(state(record), restated=True)))
    if outcome.proof is None:
        return reopen(tried)
    main = evolve(obligations_of(record.work)[0], status="proved", proof=outcome.proof)
    return reopen(tried, evolve(proving(record.work), obligations=[main]))


STEP = Step(
    kind=KIND,
    role=None,
    stage=Stage.PROVING,
    ready=ready,
    inputs=inputs,
    run=run,
    apply=apply,
    slot=SetAside,
)

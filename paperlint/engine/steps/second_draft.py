"""second_draft — an independent second draft of a verdict-bearing statement (issue #15).

Double formalisation is evidence only if the second drafter cannot copy the first: it is
asked in a fresh conversation with the paper's context only (`faithful.drafting`), on
`[models] second_drafter` when the config names one, else on the drafter's model. It is
asked once per result, whatever happens next, so the checks cost at most one extra drafter
call per result; the gate then compares every draft of the result with it in Lean (the
equivalence ladder, no model).

An answer that is invalid or does not type-check is no second draft, never a stop: the gate
goes on with one draft, and the record says why.
"""

from __future__ import annotations

import re

from paperlint.agents.outputs import DraftOutput
from paperlint.domain import SECOND_DRAFT_FILE, SECOND_DRAFTER, Role
from paperlint.engine.actions import Action, ActionKind
from paperlint.engine.context import EngineContext
from paperlint.engine.policy import Policy
from paperlint.engine.steps import draft as first
from paperlint.engine.steps.base import Step, StepOutcome, View, evolve, statement_only
from paperlint.engine.steps.effects import ask, write_json
from paperlint.errors import ModelError
from paperlint.faithful.drafting import independent_inputs
from paperlint.records.results import ResultRecord, Stage
from paperlint.records.slots import drafting, fingerprint_of, plan_of
from paperlint.records.work import Slot, StoredOutput

KIND = ActionKind.SECOND_DRAFT
STEM = SECOND_DRAFT_FILE.removesuffix("-1.json")  # its Lean text: second-draft-1.lean
FILE = SECOND_DRAFT_FILE


class SecondDraft(Slot):
    """This step's state: the second draft (None if it did not type-check), whether it was
    asked (once per result), and why it is not usable. Every reset drops it: a reset that
    keeps the first draft asks a new second one."""

    KIND = KIND
    REFS = {
        "draft": StoredOutput(DraftOutput, "second-draft", re.escape(FILE), lambda w, i: [FILE])
    }

    draft: DraftOutput | None = None
    asked: bool = False
    feedback: str | None = None

    def may_write(self) -> frozenset[str]:
        return frozenset() if self.asked else frozenset({FILE})


def state(record: ResultRecord) -> SecondDraft:
    """The second draft's state of `record` (what the gate compares the drafts with)."""
    return record.work.slot(SecondDraft)


class SecondDraftOutcome(StepOutcome):
    draft: DraftOutput | None  # None: the answer was invalid or did not type-check
    feedback: str = ""  # why there is no usable second draft


def ready(record: ResultRecord, policy: Policy) -> Action | None:
    """Double drafting on, a verdict-bearing result's first draft standing before its gate,
    and no second draft asked yet."""
    work, drafted = record.work, drafting(record.work)
    if not policy.double_draft or statement_only(record) or state(record).asked:
        return None
    if plan_of(work) is None or fingerprint_of(work) is not None:
        return None
    if drafted.draft is None or drafted.feedback is not None:
        return None
    return Action(kind=KIND, result=record.id)


def inputs(record: ResultRecord, view: View) -> first.DraftInputs:
    given = first.inputs(record, view)
    return first.DraftInputs(view.action, independent_inputs(given.prompt), given.context)


def run(ctx: EngineContext, record: ResultRecord, given: first.DraftInputs) -> SecondDraftOutcome:
    action = given.action
    model = ctx.settings.models.get(SECOND_DRAFTER)  # None: the drafter's model
    try:
        draft = ask(
            ctx, SECOND_DRAFTER, Role.DRAFTER, action, given.prompt, DraftOutput, model=model
        )
    except ModelError as exc:
        return SecondDraftOutcome(action=action, draft=None, feedback=f"invalid answer: {exc}")
    # the same shape as the first draft's `draft-N.json`, so `validate` reads either alike
    write_json(ctx, ctx.ws.audit_dir(record.id) / FILE, draft.model_dump(mode="json"))
    ok, feedback = first.typecheck(ctx, record, given, draft, stem=STEM)
    return SecondDraftOutcome(action=action, draft=draft if ok else None, feedback=feedback)


def apply(record: ResultRecord, outcome: SecondDraftOutcome, policy: Policy) -> ResultRecord:
    slot = SecondDraft(draft=outcome.draft, asked=True, feedback=outcome.feedback or None)
    return evolve(record, work=record.work.with_slot(slot))


STEP = Step(
    kind=KIND,
    role=Role.DRAFTER,
    stage=Stage.DRAFTED,
    ready=ready,
    inputs=inputs,
    run=run,
    apply=apply,
    slot=SecondDraft,
)

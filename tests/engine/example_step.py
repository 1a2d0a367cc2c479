"""A whole step, as small as one can be: the example `paperlint.engine.steps` points to.

It is registered only by `tests/engine/test_registry.py`, with the one line a real step adds
to `REGISTRY`; nothing else in the engine names it, its kind or its slot. (A real step asks a
model in `run`, through `steps.effects.ask`, and writes its evidence under `audits/`.)
"""

from __future__ import annotations

from paperlint.engine.actions import Action
from paperlint.engine.context import EngineContext
from paperlint.engine.policy import Policy
from paperlint.engine.steps.base import Step, StepOutcome, View, evolve, statement_only
from paperlint.records.results import ResultRecord, Stage
from paperlint.records.slots import draft_of, fingerprint_of
from paperlint.records.work import ResetAction, Slot

KIND = "describe"
NOTE = "described: "


class Described(Slot):
    """This step's own working state: the description, once made."""

    KIND = KIND

    text: str | None = None

    @classmethod
    def after_reset(
        cls, before: ResultRecord, action: ResetAction, revision: bool
    ) -> Described | None:
        """A `re-prove` keeps the statement, so the description stands; any other reset
        may change the statement: describe it again."""
        return state(before) if action == "re-prove" else None


def state(record: ResultRecord) -> Described:
    """The typed accessor other steps would read this step's state through."""
    return record.work.slot(Described)


class DescribeOutcome(StepOutcome):
    text: str


def ready(record: ResultRecord, policy: Policy) -> Action | None:
    """A gated definition not yet described."""
    gated = statement_only(record) and fingerprint_of(record.work) is not None
    if not gated or state(record).text is not None:
        return None
    return Action(kind=KIND, result=record.id)


def inputs(record: ResultRecord, view: View) -> tuple[Action, str]:
    return view.action, draft_of(record.work).lean_name if draft_of(record.work) else record.id


def run(ctx: EngineContext, record: ResultRecord, given: tuple[Action, str]) -> DescribeOutcome:
    action, name = given
    return DescribeOutcome(action=action, text=f"`{name}` is a definition")


def apply(record: ResultRecord, outcome: DescribeOutcome, policy: Policy) -> ResultRecord:
    work = record.work.with_slot(Described(text=outcome.text))
    return evolve(record, notes=[*record.notes, NOTE + outcome.text], work=work)


STEP = Step(
    kind=KIND,
    role=None,
    stage=Stage.DONE,
    ready=ready,
    inputs=inputs,
    run=run,
    apply=apply,
    slot=Described,
)

"""A whole step, as small as one can be: the example `paperlint.engine.steps` points to.

It is registered only by `tests/engine/test_registry.py`, with the one line a real step adds
to `REGISTRY`; nothing else in the engine names it. (A real step asks a model in `run`,
through `steps.effects.ask`, and writes its evidence under `audits/`.)
"""

from __future__ import annotations

from paperlint.engine.actions import Action
from paperlint.engine.context import EngineContext
from paperlint.engine.policy import Policy
from paperlint.engine.steps.base import Step, StepOutcome, View, evolve, statement_only
from paperlint.records.results import ResultRecord, Stage

KIND = "describe"
NOTE = "described: "


class DescribeOutcome(StepOutcome):
    text: str


def ready(record: ResultRecord, policy: Policy) -> Action | None:
    """A gated definition not yet described."""
    gated = statement_only(record) and record.work.fingerprint is not None
    if not gated or any(n.startswith(NOTE) for n in record.notes):
        return None
    return Action(kind=KIND, result=record.id)


def inputs(record: ResultRecord, view: View) -> tuple[Action, str]:
    return view.action, record.work.draft.lean_name if record.work.draft else record.id


def run(ctx: EngineContext, record: ResultRecord, given: tuple[Action, str]) -> DescribeOutcome:
    action, name = given
    return DescribeOutcome(action=action, text=f"`{name}` is a definition")


def apply(record: ResultRecord, outcome: DescribeOutcome, policy: Policy) -> ResultRecord:
    return evolve(record, notes=[*record.notes, NOTE + outcome.text])


STEP = Step(
    kind=KIND, role=None, stage=Stage.DONE, ready=ready, inputs=inputs, run=run, apply=apply
)

"""plan — the architect splits the paper's proof route into steps."""

from __future__ import annotations

from paperlint.agents.inputs import ArchitectInputs
from paperlint.agents.outputs import ArchitectOutput
from paperlint.domain import Role
from paperlint.engine import prompts
from paperlint.engine.actions import Action, ActionKind
from paperlint.engine.context import EngineContext
from paperlint.engine.policy import Policy
from paperlint.engine.steps.base import (
    Given,
    Step,
    StepOutcome,
    View,
    evolve,
    reopen,
    statement_only,
)
from paperlint.engine.steps.effects import ask, write_json
from paperlint.records.results import ResultRecord, Stage
from paperlint.records.slots import Planned, plan_of


class PlanOutcome(StepOutcome):
    plan: ArchitectOutput


def inputs(record: ResultRecord, view: View) -> Given[ArchitectInputs]:
    prompt = ArchitectInputs(
        **prompts.paper_context(view.ctx, record, view.results),
        proof=prompts.proof_text(view.ctx, record),
    )
    return Given(view.action, prompt)


def run(ctx: EngineContext, record: ResultRecord, given: Given[ArchitectInputs]) -> PlanOutcome:
    action = given.action
    plan = ask(ctx, "architect", Role.ARCHITECT, action, given.prompt, ArchitectOutput)
    write_json(ctx, ctx.ws.audit_dir(record.id) / "plan.json", plan.model_dump(mode="json"))
    return PlanOutcome(action=action, plan=plan)


def apply(record: ResultRecord, outcome: PlanOutcome, policy: Policy) -> ResultRecord:
    return evolve(reopen(record, Planned(plan=outcome.plan)), stage=Stage.PLANNED)


def ready(record: ResultRecord, policy: Policy) -> Action | None:
    """First of all, for a result to be proved: the route."""
    if statement_only(record) or plan_of(record.work) is not None:
        return None
    return Action(kind=ActionKind.PLAN, result=record.id)


STEP = Step(
    kind=ActionKind.PLAN,
    role=Role.ARCHITECT,
    stage=Stage.PLANNED,
    ready=ready,
    inputs=inputs,
    run=run,
    apply=apply,
    slot=Planned,
)

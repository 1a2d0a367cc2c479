"""Execute one action: look its step up, build its inputs, run its effects.

Evidence is written to disk by the step's `run`, before `apply` and the commit record it
(evidence first, state last). Failures of the edges become a typed `Failed`, never exceptions.
"""

from __future__ import annotations

from paperlint.agents.faults import BudgetSpent, ModelUnavailableError
from paperlint.engine.actions import Action, Failure
from paperlint.engine.context import EngineContext
from paperlint.engine.steps import REGISTRY, Failed, StepOutcome, View
from paperlint.engine.steps.effects import LeanUnavailable
from paperlint.errors import ModelError
from paperlint.records.results import Results
from paperlint.records.slots import draft_of


def execute(ctx: EngineContext, results: Results, action: Action) -> StepOutcome:
    record = results.get(action.result)
    if record is None:
        raise KeyError(action.result)
    step = REGISTRY[action.kind]
    try:
        outcome: StepOutcome = step.run(
            ctx, record, step.inputs(record, View(ctx, results, action))
        )
        return outcome
    except ModelUnavailableError as exc:
        # Auth, config, a provider that kept failing: resumable, never a final reason.
        return Failed(action=action, failure=Failure.MODEL_UNAVAILABLE, detail=str(exc))
    except BudgetSpent as exc:
        return Failed(action=action, failure=Failure.BUDGET_EXHAUSTED, detail=str(exc))
    except LeanUnavailable as exc:
        return Failed(action=action, failure=Failure.LEAN_UNAVAILABLE, detail=str(exc))
    except ModelError as exc:
        return Failed(action=action, failure=Failure.INVALID_MODEL_OUTPUT, detail=str(exc))


def needed_records(ctx: EngineContext, results: Results, action: Action) -> Results:
    """`results` cut down to the records `action` reads (`needed_ids`). A runner in another
    process ships only these: `execute` on them gives what it gives on the whole."""
    if results.get(action.result) is None:
        return results  # `execute` raises for it, as on the whole
    wanted = needed_ids(ctx, results, action)
    return results.model_copy(update={"results": [r for r in results.results if r.id in wanted]})


def needed_ids(ctx: EngineContext, results: Results, action: Action) -> set[str]:
    """The ids of the records `action` reads: its own, its dependencies' (the transitive ones
    compose its Lean context, the direct uses its prompt) and the predecessors its drafted
    conditions name (a reconnect discharges them)."""
    record = results.get(action.result)
    if record is None:
        return {action.result}
    wanted = {record.id, *ctx.deps.get(record.id, [])}
    paper = ctx.inventory.result(record.id)
    if paper is not None:
        wanted.update(paper.uses, paper.proof_uses)
    draft = draft_of(record.work)
    if draft is not None:
        wanted.update(c.result for c in draft.conditions if c.result)
    return wanted

"""The engine's actions, one module each, and the registry that maps an action kind to its step.

A step is a `Step` (see `base.py`) with five parts:

- `kind` and `role`: the `ActionKind` it answers and the `Role` whose model it asks;
- `inputs(record, view) -> I` (pure): the typed inputs — a `Given` holding the action and the
  prompt model from `paperlint.agents.inputs`, plus whatever `run` needs (a Lean context, …);
- `run(ctx, record, inputs) -> O` (the effects): one agent call and its Lean checks; it writes
  its evidence under `audits/` and returns a typed outcome, a `StepOutcome` subclass;
- `apply(record, outcome, policy) -> ResultRecord` (pure): the new record. Verdict rules live
  here and only here; the shell (`execute.py`, `apply.py`, `run.py`) decides nothing.

To add a step:

1. add its kind to `ActionKind` in `paperlint/engine/actions.py` (and a role to
   `paperlint.domain.Role` if a new role does it);
2. write `paperlint/engine/steps/<name>.py` ending with
   `STEP = Step(kind=ActionKind.X, role=Role.Y, inputs=inputs, run=run, apply=apply)`;
3. add `<name>.STEP` to `REGISTRY` below (one line);
4. make `paperlint.engine.plan.next_action` return the new action where it belongs, and add its
   case table to `tests/engine/test_step_apply.py`.

Edge failures (no model, an invalid answer, no Lean) are handled once, by the shell, as a
`Failed` outcome; `run` simply lets `ModelUnavailable`, `LeanUnavailable` or `ModelError` rise.
"""

from __future__ import annotations

from paperlint.engine.actions import ActionKind
from paperlint.engine.steps import audit, check_issue, draft, gate, plan, prove, review_issue
from paperlint.engine.steps.base import AnyStep, Failed, Given, Step, StepOutcome, View

REGISTRY: dict[ActionKind, AnyStep] = {
    step.kind: step
    for step in (
        plan.STEP,
        draft.STEP,
        gate.STEP,
        prove.STEP,
        check_issue.STEP,
        review_issue.STEP,
        audit.STEP,
    )
}

__all__ = ["REGISTRY", "Failed", "Given", "Step", "StepOutcome", "View"]

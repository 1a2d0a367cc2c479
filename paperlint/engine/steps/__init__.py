"""The engine's actions, one module each, and the registry that maps an action kind to its step.

A step is a `Step` (see `base.py`) with seven parts:

- `kind` and `role`: the action kind it answers (a string; `ActionKind` names the built-in
  ones) and the `Role` whose model it asks;
- `stage`: the stage its action works toward (`check --until STAGE` runs the steps up to it);
- `ready(record, policy) -> Action | None` (pure): the action it would take next on the
  record, or None. `plan.next_action` asks every registered step, in registry order, and takes
  the first answer; the steps' conditions exclude one another, so the order is only a tie-break;
- `inputs(record, view) -> I` (pure): the typed inputs — a `Given` holding the action and the
  prompt model from `paperlint.agents.inputs`, plus whatever `run` needs (a Lean context, …);
- `run(ctx, record, inputs) -> O` (the effects): one agent call and its Lean checks; it writes
  its evidence under `audits/` and returns a typed outcome, a `StepOutcome` subclass;
- `apply(record, outcome, policy) -> ResultRecord` (pure): the new record. Verdict rules live
  here and only here; the shell (`execute.py`, `apply.py`, `run.py`) decides nothing.

Optionally, `slot`: the step's own working state, a `paperlint.records.work.Slot` subclass
defined in its module (`KIND` its kind; which fields are agent outputs kept as references;
what a reset keeps, `after_reset`). The module gives other steps a typed accessor
(`state(record)`); the state file stores the slot under its kind, the rewind asks it what a
reset keeps, both learning the types from this registry (`learn_slots` below).

Optionally, `revisit(record, results, policy) -> Action | None` (pure): an action on a result
that is settled, called for by other records; `plan` asks it where `ready` no longer applies
(`reconnect.py`: a clause discharged once its predecessor is verified, issue #14).

To add a step: write `paperlint/engine/steps/<name>.py` ending with
`STEP = Step(kind="<name>", role=Role.Y, stage=Stage.Z, ready=..., inputs=..., run=...,
apply=...)`, and add `<name>.STEP` to `REGISTRY` below (one line). Nothing else names the kinds
or the slots (a new role is a member of `paperlint.domain.Role`; `--until` goes by `stage`).
Add its case table to `tests/engine/test_step_apply.py`; `tests/engine/test_registry.py`
shows a whole example step, with a slot.

Edge failures (no model, an invalid answer, no Lean) are handled once, by the shell, as a
`Failed` outcome; `run` simply lets `ModelUnavailableError`, `LeanUnavailable` or `ModelError`
rise.
"""

from __future__ import annotations

from paperlint.engine.steps import (
    audit,
    check_issue,
    draft,
    gate,
    plan,
    prove,
    reconnect,
    restate,
    review_issue,
    second_draft,
)
from paperlint.engine.steps.base import AnyStep, Failed, Given, Step, StepOutcome, View
from paperlint.records.results import Results
from paperlint.records.work import Slot, UnknownSlot, learn_slots

REGISTRY: dict[str, AnyStep] = {
    step.kind: step
    for step in (
        plan.STEP,
        draft.STEP,
        second_draft.STEP,
        gate.STEP,
        check_issue.STEP,
        review_issue.STEP,
        restate.STEP,
        prove.STEP,
        audit.STEP,
        reconnect.STEP,
    )
}


def slot_types() -> dict[str, type[Slot]]:
    """The registered steps' slot types, by kind (read live: a test may register a step)."""
    return {kind: step.slot for kind, step in REGISTRY.items() if step.slot is not None}


learn_slots(slot_types)


def has_unknown_slots(results: Results) -> bool:
    """Records read before this registry was imported hold the steps' slots as stored
    (`UnknownSlot`): read them again before a step runs on them."""
    return any(isinstance(s, UnknownSlot) for r in results.results for s in r.work.slots.values())


__all__ = ["REGISTRY", "Failed", "Given", "Step", "StepOutcome", "View"]

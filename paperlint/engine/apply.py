"""Apply an action's outcome to the records: the pure state transition.

Verdicts are decided by the steps' `apply` (`paperlint.engine.steps`), by the rules of
docs/design.md §5, from evidence already on disk. No model output reaches a verdict except through
Lean evidence the audit accepted (verified) or a confirmed ruling with a located quote (issue; ERROR
also needs a compiled counterexample).
"""

from __future__ import annotations

from paperlint.engine.plan import Policy
from paperlint.engine.steps import REGISTRY, Failed, StepOutcome
from paperlint.engine.steps.base import apply_failure, unfinished
from paperlint.records.results import ResultRecord, Results

__all__ = ["apply", "apply_one", "unfinished"]


def apply(results: Results, outcome: StepOutcome, policy: Policy) -> Results:
    """Return new records with `outcome` applied to its result."""
    updated = [
        apply_one(r, outcome, policy) if r.id == outcome.action.result else r
        for r in results.results
    ]
    return results.model_copy(update={"results": updated})


def apply_one(record: ResultRecord, outcome: StepOutcome, policy: Policy) -> ResultRecord:
    if isinstance(outcome, Failed):
        return apply_failure(record, outcome)
    return REGISTRY[outcome.action.kind].apply(record, outcome, policy)

"""Whether a workspace has anything left to do, decided from its records alone.

Kept apart from the queue policy (`engine.plan`) so that a resume of a finished check can say
"nothing to do" without importing the steps, the prompts and the prover: the cheap answer is
the same one `plan` and the convergence review would reach, read from the same records.
"""

from __future__ import annotations

from pathlib import Path

from paperlint.records.results import ResultRecord, Results, Stage, UnfinishedReason, Verdict

# Unfinished reasons a later run may pick up again (more budget, Lean installed, a model set).
SOFT_REASONS = {
    UnfinishedReason.BUDGET_EXHAUSTED,
    UnfinishedReason.LEAN_UNAVAILABLE,
    UnfinishedReason.MODEL_UNAVAILABLE,
    UnfinishedReason.INTERRUPTED,
}


def is_open(record: ResultRecord) -> bool:
    """Still to be worked on: no verdict yet, or a soft `unfinished` a new run may resume."""
    if record.stage is Stage.DONE and record.verdict is not Verdict.UNFINISHED:
        return False
    if record.verdict is Verdict.UNFINISHED:
        return record.unfinished is not None and record.unfinished.reason in SOFT_REASONS
    return True


def settled(results: Results, workspace: Path, *, convergence: bool) -> bool:
    """No result is open and the convergence review (when the config asks for one) is asked,
    answered and applied: a run would plan nothing, ask nothing and change no record."""
    if any(is_open(r) for r in results.results):
        return False
    if not convergence:
        return True
    from paperlint.records.convergence import read_state

    state = read_state(workspace)
    if state is None or state.status in ("asking", "pending"):
        return False  # pending: a provider failure or a budget stop left it to ask again
    return state.status != "done" or not state.regate or state.applied

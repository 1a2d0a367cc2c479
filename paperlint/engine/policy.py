"""The run's policy (budgets, retries, the prover ladder): what `plan` and every step's
readiness read. Its own module so the steps need not import the queue (`plan.py`)."""

from __future__ import annotations

from dataclasses import dataclass

from paperlint.records.spend import Budget


@dataclass(frozen=True)
class Policy:
    prover_ladder: tuple[str, ...]
    prover_attempts: int = 4
    escalate_after: int = 2
    draft_rounds: int = 2
    # Issue #15: a second, independent draft of each verdict-bearing statement before the gate.
    double_draft: bool = False
    budget: Budget = Budget()


def prover_model(policy: Policy, attempt: int) -> str | None:
    """Escalate along the ladder every `escalate_after` failed attempts."""
    if not policy.prover_ladder:
        return None
    rung = min((attempt - 1) // max(policy.escalate_after, 1), len(policy.prover_ladder) - 1)
    return policy.prover_ladder[rung]

"""One candidate through the project's acceptance rule, kept as a `LeanAttempt` record.

All faithfulness evidence goes through `paperlint.lean.verifier.accept` with the standard
axiom allowlist: no error, no sorry, the target exists, and its `#print axioms` lists only
`propext`, `Classical.choice`, `Quot.sound` (checked again here with the project's axiom
classification, so a caller can never widen it).
"""

from __future__ import annotations

from paperlint.lean.messages import AxiomClass, classify_axiom
from paperlint.lean.verifier import (
    STANDARD_AXIOMS,
    FailureCode,
    LeanCheck,
    LeanContext,
    Outcome,
    Verifier,
    accept,
)
from paperlint.records.faithfulness import LeanAttempt


def try_candidate(
    verifier: Verifier,
    context: LeanContext,
    label: str,
    candidate: str,
    target: str,
    *,
    timeout_s: float,
) -> tuple[LeanAttempt, LeanCheck]:
    """Check `candidate` on `context`; the record and Lean's full answer (for its messages)."""
    check = accept(verifier, context, candidate, target, timeout_s=timeout_s)
    if check.accepted and not has_standard_axioms(check.axioms):
        check = check.model_copy(
            update={
                "outcome": Outcome.REJECTED,
                "code": FailureCode.DISALLOWED_AXIOMS,
                "hint": f"axioms outside the standard three: {check.axioms}",
            }
        )
    attempt = LeanAttempt(
        label=label,
        candidate=candidate,
        target=target,
        outcome=check.outcome,
        code=check.code,
        hint=check.hint,
        axioms=check.axioms,
        replay=check.replay,
    )
    return attempt, check


def has_standard_axioms(axioms: tuple[str, ...] | None) -> bool:
    """Axioms were queried and every one is standard (docs/lean-notes.md §5)."""
    if axioms is None:
        return False
    return all(classify_axiom(a) is AxiomClass.STANDARD and a in STANDARD_AXIOMS for a in axioms)


def lean_is_gone(attempt: LeanAttempt) -> bool:
    """No point in sending more: the backend is unavailable (a timeout may be one slow rung)."""
    return attempt.outcome is Outcome.UNAVAILABLE

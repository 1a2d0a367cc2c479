"""Revisions: is a changed statement the old one restated? Then it keeps its proof.

`revise` resets a result whose statement changed. When the new statement is provably
equivalent to the old one (the same ladder as the double draft, both directions), the old
proof carries over through the equivalence, and Lean checks the carried proof:

    theorem NEW binders : conclusion := by
      have h_equiv : (old proposition) → (new proposition) := by
        <the forward direction's accepted proof>
      exact h_equiv OLD explicit-names

on a context that already holds the old, verified theorem `OLD`. Anything short of an
accepted carried proof means "re-prove", as before.
"""

from __future__ import annotations

from dataclasses import dataclass

from paperlint.faithful.attempts import try_candidate
from paperlint.faithful.ladder import SOURCE, check_equivalence
from paperlint.faithful.statement import parse_statement, pin_universes
from paperlint.lean.verifier import LeanContext, Verifier
from paperlint.records.faithfulness import Agreement, Equivalence, LeanAttempt


@dataclass(frozen=True)
class Restatement:
    equivalence: Equivalence
    carried_proof: str | None  # the accepted proof of the new statement, when it carried over
    attempt: LeanAttempt | None = None

    @property
    def keeps_proof(self) -> bool:
        return self.carried_proof is not None


def carried_proof(
    old_statement: str, old_name: str, new_statement: str, forward_proof: str
) -> str | None:
    """The new statement proved from the old theorem through the forward direction.

    None where the carry cannot be written: an unreadable statement, or `Type*` binders,
    whose universe a `have` inside a proof cannot introduce.
    """
    old, new = parse_statement(old_statement), parse_statement(new_statement)
    steps = _tactic_block(forward_proof)
    if old is None or new is None or steps is None:
        return None
    premise, goal = old.proposition(), new.proposition()
    if pin_universes(premise)[1] or pin_universes(goal)[1]:
        return None
    args = " ".join([old_name, *new.explicit_names()])
    body = "\n".join(
        [
            "by",
            f"  have h_equiv : ({premise}) → ({goal}) := by",
            f"    intro {SOURCE}",
            *(f"    {line}" for line in steps),
            f"  exact h_equiv {args}",
        ]
    )
    return new.theorem(new.name or new.short_name, body)


def _tactic_block(proof: str) -> list[str] | None:
    """The tactic lines after the direction theorem's `:= by`."""
    _, separator, rest = proof.partition(":= by\n")
    if not separator:
        return None
    return [line.removeprefix("  ") for line in rest.split("\n") if line.strip()]


def check_restatement(
    verifier: Verifier,
    context: LeanContext,
    old_statement: str,
    new_statement: str,
    *,
    old_name: str,
    timeout_s: float,
) -> Restatement:
    """`context` must hold the old theorem `old_name` (verified) and the definitions."""
    equivalence = check_equivalence(
        verifier, context, old_statement, new_statement, timeout_s=timeout_s
    )
    forward = equivalence.forward
    if equivalence.agreement is not Agreement.EQUIVALENT or forward is None or not forward.proof:
        return Restatement(equivalence=equivalence, carried_proof=None)
    candidate = carried_proof(old_statement, old_name, new_statement, forward.proof)
    new = parse_statement(new_statement)
    if candidate is None or new is None:
        return Restatement(equivalence=equivalence, carried_proof=None)
    attempt, _ = try_candidate(
        verifier, context, "carried proof", candidate, new.name or "", timeout_s=timeout_s
    )
    return Restatement(
        equivalence=equivalence,
        carried_proof=candidate if attempt.accepted else None,
        attempt=attempt,
    )

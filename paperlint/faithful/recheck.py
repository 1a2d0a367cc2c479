"""Re-check the Lean parts of recorded faithfulness evidence, with no model (for `validate`).

A record may claim three things Lean showed: a direction of the equivalence was proved, the
statement was refuted, a hypothesis was not needed. Each claim carries the exact text Lean
accepted and the context it was accepted on; here each is sent again through the same
acceptance rule. A claim whose text no longer checks is a disagreement; a claim that could
not be re-checked (no Lean, no recording) is reported as such, never as confirmed.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum

from paperlint.faithful.attempts import try_candidate
from paperlint.faithful.model import FaithfulnessEvidence
from paperlint.lean.verifier import Verifier


class Recheck(StrEnum):
    CONFIRMED = "confirmed"
    DISAGREES = "disagrees"  # Lean answered and rejected the recorded text
    UNCHECKED = "unchecked"  # no answer: timeout, no Lean, no recording


@dataclass(frozen=True)
class Claim:
    what: str  # "first_implies_second", "refutation", "unneeded h"
    declaration: str
    target: str


@dataclass(frozen=True)
class ClaimCheck:
    claim: Claim
    status: Recheck
    hint: str | None = None


def claims(evidence: FaithfulnessEvidence) -> Iterator[Claim]:
    """Every positive Lean claim the evidence makes."""
    equivalence = evidence.equivalence
    if equivalence is not None:
        for direction in (equivalence.forward, equivalence.backward):
            if direction is not None and direction.proved and direction.proof and direction.target:
                yield Claim(direction.direction.value, direction.proof, direction.target)
    for what, probe in (
        ("refutation", evidence.probe),
        ("draft 2 refutation", evidence.second_probe),
    ):
        if probe is not None and probe.refutation is not None:
            ref = probe.refutation
            yield Claim(what, ref.declaration, ref.target)
    minimal = evidence.minimal
    if minimal is not None:
        for check in minimal.unneeded:
            if check.attempt is not None:
                yield Claim(f"unneeded {check.name}", check.attempt.candidate, check.attempt.target)


def recheck(
    verifier: Verifier, evidence: FaithfulnessEvidence, *, timeout_s: float
) -> list[ClaimCheck]:
    out: list[ClaimCheck] = []
    for claim in claims(evidence):
        attempt, _ = try_candidate(
            verifier,
            evidence.context,
            f"recheck {claim.what}",
            claim.declaration,
            claim.target,
            timeout_s=timeout_s,
        )
        if attempt.accepted:
            status = Recheck.CONFIRMED
        elif attempt.answered:
            status = Recheck.DISAGREES
        else:
            status = Recheck.UNCHECKED
        out.append(ClaimCheck(claim=claim, status=status, hint=attempt.hint))
    return out

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

from paperlint.faithful.attempts import has_standard_axioms, try_candidate
from paperlint.faithful.ladder import rung_candidate
from paperlint.faithful.minimal import without_hypothesis
from paperlint.faithful.probe import negation_candidate
from paperlint.faithful.statement import parse_statement
from paperlint.lean.verifier import Verifier
from paperlint.records.faithfulness import FaithfulnessEvidence, LeanAttempt


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


def inconsistencies(evidence: FaithfulnessEvidence) -> list[str]:
    """Claims whose text is not the one the checks would write for the recorded statements.

    No Lean needed: a refutation must be `¬ (the recorded statement)`, a direction must be
    built from the two recorded drafts, an unneeded hypothesis must be the recorded proof with
    exactly that hypothesis removed, and each claim must have been accepted with standard
    axioms. A record edited to claim more than it checked fails here.
    """
    problems: list[str] = []
    problems += _direction_problems(evidence)
    problems += _refutation_problems(evidence)
    problems += _minimal_problems(evidence)
    return problems


def _direction_problems(evidence: FaithfulnessEvidence) -> list[str]:
    eq = evidence.equivalence
    if eq is None:
        return []
    one, two = parse_statement(eq.first), parse_statement(eq.second)
    problems: list[str] = []
    for result, source, target in ((eq.forward, one, two), (eq.backward, two, one)):
        if result is None or not result.proved:
            continue
        name = result.target or ""
        if source is None or target is None or result.rung is None or result.proof is None:
            problems.append(f"{result.direction.value}: claimed without readable drafts")
            continue
        head = rung_candidate(result.rung, source, target, name).split(" := by\n")[0]
        if not result.proof.startswith(head + " := by\n"):
            problems.append(f"{result.direction.value}: the proof is not of the recorded drafts")
        if not _accepted(result.attempts, result.proof):
            problems.append(f"{result.direction.value}: no accepted attempt with standard axioms")
    return problems


def _refutation_problems(evidence: FaithfulnessEvidence) -> list[str]:
    problems: list[str] = []
    for probe in (evidence.probe, evidence.second_probe):
        if probe is None or probe.refutation is None:
            continue
        statement = parse_statement(probe.statement)
        ref = probe.refutation
        expected = None if statement is None else negation_candidate(statement, "")
        if expected is None or not ref.declaration.startswith(expected.rstrip()):
            problems.append("refutation: not a refutation of the recorded statement")
        if not has_standard_axioms(ref.axioms) or not _accepted(probe.attempts, ref.declaration):
            problems.append("refutation: no accepted attempt with standard axioms")
    return problems


def _minimal_problems(evidence: FaithfulnessEvidence) -> list[str]:
    minimal = evidence.minimal
    if minimal is None:
        return []
    statement = parse_statement(minimal.declaration)
    problems: list[str] = []
    for check in minimal.unneeded:
        attempt = check.attempt
        if statement is None or attempt is None:
            problems.append(f"unneeded {check.name}: no readable declaration or attempt")
            continue
        if attempt.candidate != without_hypothesis(statement, check.name):
            problems.append(f"unneeded {check.name}: not the proof without exactly {check.name}")
        if not (attempt.accepted and has_standard_axioms(attempt.axioms)):
            problems.append(f"unneeded {check.name}: not accepted with standard axioms")
    return problems


def _accepted(attempts: tuple[LeanAttempt, ...], text: str) -> bool:
    return any(
        a.candidate == text and a.accepted and has_standard_axioms(a.axioms) for a in attempts
    )

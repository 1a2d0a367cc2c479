"""Minimal hypotheses after proof: which explicit hypotheses does the proof not need?

Once a result is verified, its accepted declaration is re-checked once per explicit
hypothesis, with that hypothesis removed and the proof unchanged. If Lean still accepts it
(standard axioms only), the hypothesis is not needed: the paper may assume more than it uses
(a PAPER_ASSUMPTION note) or the statement may be weaker than it reads (an EXPOSITION remark).
It is reported, never silently dropped: the verified statement stays the gated one.

No call is spent where the answer is known: a hypothesis the proof names would only give
"unknown identifier", and one that the conclusion or another binder mentions cannot be removed
without changing the statement.
"""

from __future__ import annotations

from paperlint.faithful.attempts import lean_is_gone, try_candidate
from paperlint.faithful.statement import BinderRole, Statement, is_name, parse_statement
from paperlint.lean.verifier import LeanContext, Verifier
from paperlint.records.faithfulness import HypothesisCheck, HypothesisStatus, MinimalHypotheses


def without_hypothesis(statement: Statement, name: str) -> str:
    """The verified declaration with hypothesis `name` removed and the same proof."""
    reduced = statement.without(name)
    return reduced.theorem(_variant_name(statement, name), reduced.body)


def _variant_name(statement: Statement, name: str) -> str:
    return f"{statement.short_name}_without_{name}"


def hypotheses(statement: Statement) -> list[tuple[int, str, str]]:
    """(group index, name, type) of every explicit hypothesis, in order."""
    return [
        (index, token.text, group.type)
        for index, group in enumerate(statement.groups)
        if group.explicit and group.role is BinderRole.HYPOTHESIS
        for token in group.names
    ]


def minimal_hypotheses(
    verifier: Verifier, context: LeanContext, verified: str, *, timeout_s: float
) -> MinimalHypotheses:
    """One Lean check per removable hypothesis of the verified declaration `verified`."""
    statement = parse_statement(verified)
    if statement is None or not statement.body_tokens:
        return MinimalHypotheses(declaration=verified, skipped="no readable proof to re-check")
    checks: list[HypothesisCheck] = []
    gone = False
    for index, name, lean_type in hypotheses(statement):
        status = _known_status(statement, index, name)
        if status is not None or gone:
            checks.append(
                HypothesisCheck(
                    name=name, lean_type=lean_type, status=status or HypothesisStatus.NO_ANSWER
                )
            )
            continue
        candidate = without_hypothesis(statement, name)
        attempt, _ = try_candidate(
            verifier,
            context,
            f"without {name}",
            candidate,
            _variant_name(statement, name),
            timeout_s=timeout_s,
        )
        gone = lean_is_gone(attempt)
        if attempt.accepted:
            status = HypothesisStatus.UNNEEDED
        elif attempt.answered:
            status = HypothesisStatus.NEEDED
        else:
            status = HypothesisStatus.NO_ANSWER
        checks.append(
            HypothesisCheck(name=name, lean_type=lean_type, status=status, attempt=attempt)
        )
    return MinimalHypotheses(declaration=verified, checks=tuple(checks))


def _known_status(statement: Statement, index: int, name: str) -> HypothesisStatus | None:
    if statement.mentions(name, skip_group=index):
        return HypothesisStatus.IN_STATEMENT
    group = statement.groups[index]
    if any(is_name(t, name) for t in group.type_tokens):
        return HypothesisStatus.IN_STATEMENT
    if any(is_name(t, name) for t in statement.body_tokens):
        return HypothesisStatus.NAMED_IN_PROOF
    return None

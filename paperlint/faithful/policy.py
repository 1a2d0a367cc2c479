"""What the faithfulness evidence does to a result at the gate: a pure decision table.

The checks never decide a verdict; they decide what must happen next, and what the gate must
answer. In order of precedence:

| evidence | gate's ruling | next |
|---|---|---|
| statement refuted in Lean | statement is faithful | ERROR issue, counterexample compiled |
| statement refuted in Lean | otherwise | back to the drafter, with the witness |
| drafts disagree | draft 1 is the paper's | keep draft 1 |
| drafts disagree | draft 2 is the paper's | gate draft 2 instead |
| drafts disagree | both defensible | DOMAIN_CLARIFICATION issue |
| drafts disagree | neither / no ruling | back to the drafter (both drafts shown) |
| drafts equivalent, or one draft | — | proceed; evidence recorded |

Lints are shown and must be answered by the gate, but never change the row.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict

from paperlint.agents.outputs import GateRuling, Reading
from paperlint.faithful.check import disagree
from paperlint.records.faithfulness import FaithfulnessEvidence
from paperlint.records.faithfulness_brief import equivalence_lines, probe_lines

__all__ = ["Decision", "GateRuling", "Next", "Reading", "decide"]


class Next(StrEnum):
    PROCEED = "proceed"  # nothing for the faithfulness checks to add
    KEEP_FIRST = "keep_first"
    USE_SECOND = "use_second"
    REDRAFT = "redraft"
    ERROR_ISSUE = "error_issue"
    DOMAIN_CLARIFICATION = "domain_clarification"


class Decision(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    next: Next
    why: str
    feedback: str = ""  # for the drafter, on REDRAFT
    counterexample: str | None = None  # the compiled refutation, on ERROR_ISSUE
    kind: Literal["paperlint.faithful-decision/1"] = "paperlint.faithful-decision/1"


def decide(evidence: FaithfulnessEvidence, ruling: GateRuling | None) -> Decision:
    """The next step for a result, from its evidence and the gate's ruling on it."""
    ruling = ruling or GateRuling()
    probe = evidence.probe
    if probe is not None and probe.refutation is not None:
        if ruling.statement_faithful:
            return Decision(
                next=Next.ERROR_ISSUE,
                why="Lean refutes a statement the gate holds faithful to the paper",
                counterexample=probe.refutation.declaration,
            )
        return Decision(
            next=Next.REDRAFT,
            why="Lean refutes the drafted statement: a mistranslation",
            feedback="\n".join(probe_lines(probe)),
        )
    if not disagree(evidence):
        return Decision(next=Next.PROCEED, why=_agreement(evidence))
    return _on_disagreement(evidence, ruling.reading)


def _on_disagreement(evidence: FaithfulnessEvidence, reading: Reading | None) -> Decision:
    if evidence.equivalence is None:  # `disagree` rules this out; kept for the type checker
        return Decision(next=Next.PROCEED, why="one draft only")
    failing = ", ".join(d.value for d in evidence.equivalence.failing)
    if reading is Reading.FIRST:
        return Decision(
            next=Next.KEEP_FIRST, why=f"the gate reads the paper as draft 1 ({failing})"
        )
    if reading is Reading.SECOND:
        return Decision(
            next=Next.USE_SECOND, why=f"the gate reads the paper as draft 2 ({failing})"
        )
    if reading is Reading.BOTH_DEFENSIBLE:
        return Decision(
            next=Next.DOMAIN_CLARIFICATION,
            why=f"two defensible readings that Lean does not prove equivalent ({failing})",
        )
    return Decision(
        next=Next.REDRAFT,
        why="the drafts disagree and the gate picked neither",
        feedback="\n".join(equivalence_lines(evidence.equivalence)),
    )


def _agreement(evidence: FaithfulnessEvidence) -> str:
    eq = evidence.equivalence
    if eq is None:
        return "one draft only"
    return f"drafts: {eq.agreement.value}"

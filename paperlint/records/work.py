"""Per-result working state of the engine, kept in `engine/state-<sha>.json` beside
`results.json` (`paperlint.records.state`; docs/workspace.md), never in the contract.

Large texts (Lean candidates, reviews) live in files under `lean/` and `audits/`; this record
holds what `plan` needs to decide the next action, so a resume needs nothing else.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from paperlint.agents.outputs import (
    ArchitectOutput,
    AuditOutput,
    DraftOutput,
    GateOutput,
    IssueRuling,
    OmitUnused,
    ReviewOutput,
)


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class FailedProof(_Record):
    attempt: int
    model: str
    file: str  # the candidate, under audits/<id>/
    feedback: str  # Lean's answer for the prover, truncated


class Obligation(_Record):
    id: str
    skeleton: str  # the declaration with a `sorry` body, as gated
    status: Literal["open", "proved", "failed"] = "open"
    proof: str | None = None  # the accepted declaration text
    attempts: int = 0
    failures: list[FailedProof] = Field(default_factory=list)


class Suspicion(_Record, OmitUnused):
    OMIT_AT_DEFAULT = ("raised_by",)  # issue #15
    obligation: str | None
    reason: str
    raised_by: str = "prover"  # the role: the prover, or the gate (issue #15)


class CounterexampleCheck(_Record):
    file: str
    accepted: bool
    axioms_ok: bool
    detail: str = ""


class FinalAudit(_Record):
    file: str
    clean: bool
    axioms: list[str] | None
    axioms_ok: bool
    hygiene_findings: list[str] = Field(default_factory=list)
    fingerprint_ok: bool = False
    # What Lean's elaboration of the statement changed since the gate (elaborated.py).
    statement_changes: list[str] = Field(default_factory=list)
    record: str  # audits/<id>/final-check.json
    detail: str = ""


class PreviousProof(_Record):
    """A verified result's statement and proof before a revision changed its statement (#15):
    if the new gated statement is equivalent to it in Lean, the proof carries over."""

    statement: str  # the gated declaration, `sorry` body
    lean_name: str
    proof: str  # the verified main declaration
    definitions: list[str] = Field(default_factory=list)


class ResultWork(_Record, OmitUnused):
    OMIT_AT_DEFAULT = (  # issue #15
        "second_draft",
        "second_draft_asked",
        "second_draft_feedback",
        "previous",
        "restated",
    )

    plan: ArchitectOutput | None = None
    draft: DraftOutput | None = None
    draft_rounds: int = 0
    draft_feedback: str | None = None  # why the last draft was sent back (Lean or gate)
    # Issue #15: the second, independent draft (asked once per result; None if it did not
    # type-check), compared with each draft in Lean at the gate.
    second_draft: DraftOutput | None = None
    second_draft_asked: bool = False
    second_draft_feedback: str | None = None  # why the second draft was not usable
    # Issue #15: the proof a revision set aside, and whether the restatement check ran on it.
    previous: PreviousProof | None = None
    restated: bool = False
    gates: list[GateOutput] = Field(default_factory=list)
    fingerprint: str | None = None
    obligations: list[Obligation] = Field(default_factory=list)
    suspicion: Suspicion | None = None
    ruling: IssueRuling | None = None
    counterexample: CounterexampleCheck | None = None
    review: ReviewOutput | None = None
    final: FinalAudit | None = None
    audit: AuditOutput | None = None

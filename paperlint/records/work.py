"""Per-result working state of the engine, kept in `engine/state-<sha>.json` beside
`results.json` (`paperlint.records.state`; docs/workspace.md), never in the contract.

Large texts (Lean candidates, reviews) live in files under `lean/` and `audits/`; this record
holds what `plan` needs to decide the next action, so a resume needs nothing else.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from paperlint.records.outputs import (
    ArchitectOutput,
    AuditOutput,
    DraftOutput,
    GateOutput,
    IssueRuling,
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


class Suspicion(_Record):
    obligation: str | None
    reason: str


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


class ResultWork(_Record):
    plan: ArchitectOutput | None = None
    draft: DraftOutput | None = None
    draft_rounds: int = 0
    draft_feedback: str | None = None  # why the last draft was sent back (Lean or gate)
    gates: list[GateOutput] = Field(default_factory=list)
    fingerprint: str | None = None
    obligations: list[Obligation] = Field(default_factory=list)
    suspicion: Suspicion | None = None
    ruling: IssueRuling | None = None
    counterexample: CounterexampleCheck | None = None
    review: ReviewOutput | None = None
    final: FinalAudit | None = None
    audit: AuditOutput | None = None

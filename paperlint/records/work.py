"""Per-result working state of the engine, kept in `engine/state-<sha>.json` beside
`results.json` (`paperlint.records.state`; docs/workspace.md), never in the contract.

Large texts (Lean candidates, reviews) live in files under `lean/` and `audits/`; this record
holds what `plan` needs to decide the next action, so a resume needs nothing else. In memory
the agent outputs it keeps are typed; on disk each is a reference to the `audits/` file that
holds it (`paperlint.records.state.StoredWork`, whose fields follow these).
"""

from __future__ import annotations

from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from paperlint.records.outputs import (
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


class FinalAudit(_Record, OmitUnused):
    OMIT_AT_DEFAULT = ("checker", "checker_problems")  # issue #25
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
    # Issue #25: the trusted checker's run (audits/<id>/checker.json) and every reason it does
    # not support a verified verdict ("<rule>: <message>"); None: no checker ran.
    checker: str | None = None
    checker_problems: list[str] = Field(default_factory=list)


class Discharge(_Record):
    """A condition (kind iii) discharged by the predecessor's theorem (issue #14)."""

    condition: str  # the hypothesis' name in the conditional theorem
    result: str  # the predecessor's result id
    by: str  # the predecessor's Lean theorem
    fingerprint: str | None = None  # the predecessor's statement fingerprint when it was tried


RECONNECT_SCHEMA: Final = "paperlint.reconnect/1"  # audits/<id>/reconnect-<n>.json


class Reconnection(_Record):
    """One reconnection tried: a declaration applying the conditional theorem to the
    predecessors' theorems, checked by the verifier and then by a cold final build."""

    discharges: list[Discharge]
    name: str  # the composed declaration's Lean name
    declaration: str | None = None  # its text, once composed (dependents build on it)
    accepted: bool  # warm check, final build, axioms and hygiene all passed
    file: str | None = None  # the composed module, workspace-relative
    final_check: str | None = None  # audits/<id>/reconnect-<n>-check.json
    axioms: list[str] | None = None
    record: str  # audits/<id>/reconnect-<n>.json
    detail: str = ""  # why it was not accepted


class KeptProof(_Record):
    """What a re-gate keeps of a proved result: its gated fingerprint and its proofs, used
    again if the gate passes the same statement (issue #14)."""

    fingerprint: str
    obligations: list[Obligation]


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
        "reconnections",  # issue #14
        "kept",
        "proof_kept",
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
    reconnections: list[Reconnection] = Field(default_factory=list)  # every one tried, in order
    kept: KeptProof | None = None  # a re-gate's kept proof (see `KeptProof`)
    proof_kept: bool = False  # the obligations are a kept proof, not proved in this gating

    @property
    def reconnected(self) -> Reconnection | None:
        """The last accepted reconnection: the discharges the verdict rests on."""
        return next((r for r in reversed(self.reconnections) if r.accepted), None)

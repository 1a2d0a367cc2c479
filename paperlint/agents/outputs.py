"""What each role must answer: pydantic models, whose JSON Schemas go into the prompts.

The engine consumes these; the templates show the schema generated from them, so the two
cannot drift. The answers the engine keeps in its working state are defined in
`paperlint.records.outputs` (below the agents) and re-exported here; the others are here.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from paperlint.domain import Role
from paperlint.records.outputs import (
    ArchitectOutput,
    AuditOutput,
    CitedInput,
    ConvergenceFlag,
    DraftCondition,
    DraftOutput,
    FidelityFields,
    FieldReview,
    GateOutput,
    GateRuling,
    IssueRuling,
    OmitUnused,
    ProofStep,
    Reading,
    ReviewOutput,
    StepObligation,
)

__all__ = [  # re-exported: defined in paperlint.domain and paperlint.records.outputs
    "Role",
    "ProofStep",
    "CitedInput",
    "ArchitectOutput",
    "FidelityFields",
    "DraftCondition",
    "StepObligation",
    "DraftOutput",
    "FieldReview",
    "GateOutput",
    "GateRuling",
    "Reading",
    "OmitUnused",
    "AuditOutput",
    "ReviewOutput",
    "IssueRuling",
    "ConvergenceFlag",
]


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


# --- prover ----------------------------------------------------------------------------------


class ProverOutput(_Out):
    lean: str = Field(
        description="The obligation's declaration, statement unchanged, with a complete proof."
    )
    notes: str = ""
    gives_up: bool = Field(
        default=False,
        description="True if the paper's step does not seem to hold as justified.",
    )
    suspected_problem: str | None = None


# --- convergence review (issue #19) -------------------------------------------------------------


class ConvergenceOutput(_Out):
    """One reviewer's reading of the whole frozen graph: only what it disagrees with."""

    flags: list[ConvergenceFlag] = Field(default_factory=list)


OUTPUT_MODELS: dict[str, type[BaseModel]] = {
    "architect": ArchitectOutput,
    "drafter": DraftOutput,
    "second_drafter": DraftOutput,  # the independent second draft (#15)
    "gate": GateOutput,
    "prover": ProverOutput,
    "auditor": AuditOutput,
    "reviewer": ReviewOutput,
    "issue_checker": IssueRuling,
    "convergence": ConvergenceOutput,
}

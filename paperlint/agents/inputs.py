"""What each task's template is given: only what the active work needs (docs/design.md §6).

The runner validates `AgentCall.inputs` against these models before rendering, so a missing
or misspelt input fails loudly in the engine's tests instead of producing a thinner prompt.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from paperlint.agents.outputs import (
    CitedInput,
    DraftCondition,
    DraftOutput,
    ProofStep,
    StepObligation,
)


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ResultText(_In):
    """The result under work, as preflight extracted it."""

    id: str
    kind: str
    number: str | None = None
    title: str | None = None
    note: str | None = None
    statement: str = Field(description="LaTeX source of the statement.")
    file: str | None = None
    line: int | None = None


class Dependency(_In):
    """A result this one uses, with its Lean statement once gated."""

    id: str
    kind: str
    number: str | None = None
    statement: str = Field(description="LaTeX source of the statement.")
    lean_name: str | None = None
    lean: str | None = Field(default=None, description="Its gated Lean statement.")
    status: str | None = Field(default=None, description="e.g. verified, unverified, issue.")


class MacroDefinition(_In):
    name: str
    definition: str


class BibliographyItem(_In):
    key: str
    text: str
    locator: str | None = None


class FailedAttempt(_In):
    """An earlier try and why it failed: Lean diagnostics, gate reasons, audit findings."""

    lean: str = ""
    feedback: str


class SuspectedIssue(_In):
    raised_by: str = Field(description="The role that raised it.")
    step: str | None = None
    description: str
    issue_class: str | None = None
    quote: str = ""


class _PaperContext(_In):
    result: ResultText
    dependencies: list[Dependency] = Field(default_factory=list)
    macros: list[MacroDefinition] = Field(default_factory=list)
    bibliography: list[BibliographyItem] = Field(default_factory=list)


class ArchitectInputs(_PaperContext):
    proof: str | None = Field(default=None, description="LaTeX source of the proof.")


class DrafterInputs(_PaperContext):
    proof: str | None = None
    steps: list[ProofStep] = Field(default_factory=list)
    cited_inputs: list[CitedInput] = Field(default_factory=list)
    asserted_facts: list[str] = Field(default_factory=list)
    lean_context: str = Field(default="", description="Imports and declarations in scope.")
    failed_attempts: list[FailedAttempt] = Field(default_factory=list)


class GateInputs(_PaperContext):
    draft: DraftOutput
    lean_context: str = ""
    lean_feedback: str = Field(default="", description="The type-check of the draft.")
    faithfulness: str = Field(
        default="",
        description="What Lean showed about the draft before this review (issue #15): the "
        "equivalence with an independent second draft, a counterexample probe, advisory "
        "lints. Signals to answer in `ruling`, never verdicts.",
    )


class ProverInputs(_PaperContext):
    obligation: StepObligation
    step: ProofStep | None = Field(default=None, description="The paper's step it follows.")
    lean_context: str = ""
    failed_attempts: list[FailedAttempt] = Field(default_factory=list)


class AuditorInputs(_PaperContext):
    proof: str | None = None
    steps: list[ProofStep] = Field(default_factory=list)
    lean_file: str = Field(description="The final Lean module of the result.")
    conditions: list[DraftCondition] = Field(default_factory=list)
    mechanical: str = Field(default="", description="Build, axioms and hygiene scan summary.")


class ReviewerInputs(_PaperContext):
    proof: str | None = None
    steps: list[ProofStep] = Field(default_factory=list)
    suspected_issue: SuspectedIssue
    lean_context: str = ""
    counterexample: str | None = None
    lean_feedback: str = ""


class IssueCheckerInputs(_PaperContext):
    proof: str | None = None
    steps: list[ProofStep] = Field(default_factory=list)
    step: ProofStep | None = None
    suspected_issue: SuspectedIssue
    source_excerpt: str = Field(default="", description="Paper source lines, for quoting.")
    lean_context: str = ""
    failed_attempts: list[FailedAttempt] = Field(default_factory=list)


class ReviewedResult(_In):
    """One result of the frozen graph, as the convergence reviewers see it."""

    id: str
    kind: str
    number: str | None = None
    statement: str = Field(description="LaTeX source of the statement.")
    lean: str | None = Field(default=None, description="The gated Lean statement.")
    verdict: str | None = None
    conditions: list[str] = Field(default_factory=list, description="name : type (kind)")
    issue: str | None = Field(default=None, description="The recorded issue, class first.")


class ConvergenceInputs(_In):
    results: list[ReviewedResult]
    macros: list[MacroDefinition] = Field(default_factory=list)


INPUT_MODELS: dict[str, type[_In]] = {
    "architect": ArchitectInputs,
    "drafter": DrafterInputs,
    "second_drafter": DrafterInputs,  # the same inputs, without the first draft (#15)
    "gate": GateInputs,
    "prover": ProverInputs,
    "auditor": AuditorInputs,
    "reviewer": ReviewerInputs,
    "issue_checker": IssueCheckerInputs,
    "convergence": ConvergenceInputs,
}

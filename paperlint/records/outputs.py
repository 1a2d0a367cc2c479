"""The agent answers the engine keeps in its working state (`paperlint.records.work`): the
architect's plan, the draft, the gate's and auditor's answers, the issue ruling and review.

They are the prompts' output models (`paperlint.agents.outputs` re-exports them beside the
others and builds each prompt's JSON Schema from them), defined here, below the agents, so the
records never import the agent layer.
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache
from typing import Any, ClassVar, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

from paperlint.domain import ConditionKindField, IssueClassField, IssueSide, IssueSideField


class OmitUnused(BaseModel):
    """Fields added after records were first written (`OMIT_AT_DEFAULT`) are written only when
    they hold something: a record written before them reads back and is written again
    unchanged (a migrated workspace, a gate file compared with results.json)."""

    OMIT_AT_DEFAULT: ClassVar[tuple[str, ...]] = ()

    # No return annotation on purpose: pydantic takes a wrap serializer's JSON Schema from it,
    # and `Any` would erase every field of the model from the committed schemas.
    @model_serializer(mode="wrap")
    def _omit_unused(self, handler: SerializerFunctionWrapHandler):  # type: ignore[no-untyped-def]
        data = handler(self)
        if isinstance(data, dict):
            for name, default in _defaults(type(self)):
                if name in data and getattr(self, name) == default:
                    del data[name]
        return data


@cache
def _defaults(model: type[OmitUnused]) -> tuple[tuple[str, Any], ...]:
    """`OMIT_AT_DEFAULT`'s fields with their defaults, once per class: pydantic's
    `get_default` inspects the factory's signature on every call, and every state write
    serialises every record. The values are only compared, never handed out."""
    fields = model.model_fields
    return tuple(
        (name, fields[name].get_default(call_default_factory=True))
        for name in model.OMIT_AT_DEFAULT
    )


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


# --- architect -------------------------------------------------------------------------------


class ProofStep(_Out):
    id: str = Field(description="Stable step id, e.g. 's1'.")
    text: str = Field(description="The paper's step, quoted or closely paraphrased.")
    justification: str = Field(default="", description="Why the paper says the step holds.")
    uses: list[str] = Field(default_factory=list, description="Result ids the step uses.")
    citations: list[str] = Field(default_factory=list, description="Bibliography keys used.")


class CitedInput(_Out):
    key: str = Field(description="Bibliography key.")
    locator: str | None = Field(default=None, description="e.g. 'Theorem 2'.")
    supplies: str = Field(description="What the cited result supplies to this proof.")


class ArchitectOutput(_Out):
    steps: list[ProofStep] = Field(description="The paper's own proof route, in order.")
    cited_inputs: list[CitedInput] = Field(default_factory=list)
    asserted_facts: list[str] = Field(
        default_factory=list, description="Facts the paper asserts without proof (verbatim)."
    )


# --- drafter ---------------------------------------------------------------------------------


class FidelityFields(_Out):
    object_class: str = Field(description="What kind of objects the statement is about.")
    quantifier_order: str
    parameter_domains: str
    codomain: str
    hypotheses: str = Field(description="Hypotheses and side conditions, as the paper states.")
    conclusion: str
    follow_on_claims: str = Field(default="", description="Further claims in the statement.")


class DraftCondition(_Out):
    name: str = Field(description="The Lean hypothesis name, e.g. 'h_cite_hoeffding'.")
    lean_type: str
    kind: ConditionKindField = Field(title="Kind")
    key: str | None = None
    locator: str | None = None
    result: str | None = None
    quote: str | None = None
    used_by: str | None = Field(default=None, description="Proof step id that uses it.")


class StepObligation(_Out):
    id: str = Field(description="Matches the architect's step id, or 'main' for the theorem.")
    lean: str = Field(
        description="One Lean declaration (theorem/lemma) whose proof body is `sorry`."
    )


class DraftOutput(_Out):
    lean_name: str = Field(description="The theorem's Lean name (no namespace).")
    statement: str = Field(description="The main Lean declaration with a `sorry` proof.")
    definitions: list[str] = Field(
        default_factory=list, description="Lean definitions the statement needs, in order."
    )
    fidelity: FidelityFields
    conditions: list[DraftCondition] = Field(default_factory=list)
    obligations: list[StepObligation] = Field(
        default_factory=list,
        description="Step lemmas along the paper's route, each with a `sorry` body; the last "
        "one, id 'main', proves the statement from the steps.",
    )
    ambiguity: str | None = Field(
        default=None,
        description="If the paper's objects admit several readings on which the conclusion "
        "depends, describe them; otherwise null.",
    )


# --- gate ------------------------------------------------------------------------------------


class FieldReview(_Out):
    field: str
    ok: bool
    comment: str = ""


class Reading(StrEnum):
    """Which of two independent drafts states what the paper states (issue #15)."""

    FIRST = "first"
    SECOND = "second"
    BOTH_DEFENSIBLE = "both_defensible"
    NEITHER = "neither"


class GateRuling(_Out):
    """The gate's answer to the faithfulness questions it was shown (issue #15): which draft
    is the paper's when Lean does not prove them equivalent, whether a statement Lean refutes
    is the paper's, and a word on each advisory lint. Decisions after reasoning."""

    lint_answers: list[str] = Field(
        default_factory=list,
        description="One line per advisory lint: why it is or is not a problem.",
    )
    reading: Reading | None = Field(
        default=None,
        description="When the two drafts disagree: which one states what the paper states "
        "(both_defensible when the paper supports both readings).",
    )
    statement_faithful: bool | None = Field(
        default=None,
        description="When Lean refutes the statement: true if the Lean says exactly what the "
        "paper says (then the paper is wrong), false if the Lean mistranslates it.",
    )


class GateOutput(_Out, OmitUnused):
    # Reasoning first, decisions last: the model writes its review before it decides.
    OMIT_AT_DEFAULT = ("ruling",)  # issue #15
    fields: list[FieldReview] = Field(
        description="One review per fidelity field; a PASS needs every field, each ok."
    )
    reasons: list[str] = Field(default_factory=list)
    ruling: GateRuling | None = Field(
        default=None,
        description="Required when the faithfulness evidence asks a question (drafts that "
        "disagree, a statement Lean refutes); otherwise null.",
    )
    decision: Literal["PASS", "BLOCK"]

    @model_validator(mode="after")
    def _pass_reviews_every_field(self) -> GateOutput:
        if self.decision != "PASS":
            return self
        reviewed = {review.field for review in self.fields if review.ok}
        missing = [name for name in FidelityFields.model_fields if name not in reviewed]
        if missing:
            raise ValueError(
                "a PASS must review every fidelity field and mark each ok; missing or not ok: "
                + ", ".join(missing)
            )
        return self


# --- auditor ---------------------------------------------------------------------------------


class AuditOutput(_Out):
    decision: Literal["PASS", "FAIL"]
    findings: list[str] = Field(default_factory=list)
    route_followed: bool = Field(description="The proof follows the paper's route.")


class ReviewOutput(_Out):
    """A second agent's ruling on another agent's suspected issue."""

    confirms: bool
    explanation: str


# --- issue checker ---------------------------------------------------------------------------


class IssueRuling(_Out):
    is_issue: bool
    issue_class: IssueClassField | None = Field(default=None, title="Issue Class")
    side: IssueSideField = Field(default=IssueSide.UNKNOWN, title="Side")
    quote: str = Field(default="", description="Verbatim text from the paper's source.")
    explanation: str = ""
    counterexample: str | None = Field(
        default=None,
        description="A Lean declaration refuting the statement or an instance of it, with a "
        "complete proof; required for ERROR.",
    )
    counterexample_name: str | None = None


# --- convergence review (issue #19) -------------------------------------------------------------


class ConvergenceFlag(_Out):
    result: str = Field(description="The id of the result you flag.")
    concern: Literal["statement", "condition", "issue"]
    reason: str = Field(min_length=1, description="What is wrong, quoting the paper.")

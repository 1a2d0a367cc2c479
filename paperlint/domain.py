"""Domain facts, stated once: which results carry a verdict, which axioms are standard, the
roles, issue classes, condition kinds and output formats.

Everything else imports these names; nothing restates the sets. The records (`results.json`)
and the agents' output models use the same enums, so a value a model may answer is exactly a
value a record may hold.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Final

from pydantic import GetJsonSchemaHandler

# --- results -----------------------------------------------------------------------------------

# The kinds the paper claims: each gets one of the four verdicts (docs/design.md §5). A
# conjecture is not claimed, and an environment whose kind preflight could not name ("other") is
# not known to be a claim: neither is formalised. A restatement carries its original's verdict,
# not its own.
VERDICT_KINDS: Final[frozenset[str]] = frozenset(
    {"theorem", "lemma", "proposition", "corollary", "claim"}
)
# Inputs, not claims: formalised and gated, listed as inputs, never given a verdict.
INPUT_KINDS: Final[frozenset[str]] = frozenset({"definition", "assumption"})


def is_verdict_bearing(kind: str, restates: str | None = None) -> bool:
    """The one rule: blueprint, results and the validator all ask this."""
    return kind in VERDICT_KINDS and restates is None


# --- Lean --------------------------------------------------------------------------------------

# The axioms a verified result may depend on (docs/lean-notes.md §4); any other fails the audit.
STANDARD_AXIOMS: Final[frozenset[str]] = frozenset({"propext", "Classical.choice", "Quot.sound"})


# --- agents ------------------------------------------------------------------------------------


class Role(StrEnum):
    """Who answers a call; each has its own model setting (`[models]` in paperlint.toml)."""

    ARCHITECT = "architect"
    DRAFTER = "drafter"
    GATE = "gate"
    PROVER = "prover"
    AUDITOR = "auditor"
    ISSUE_CHECKER = "issue_checker"


SECOND_DRAFTER: Final = "second_drafter"
"""The `[models]` key (and transcript task) of the second, independent draft (issue #15): a
drafter call (role `drafter`), on its own model when one is named."""
SECOND_DRAFT_FILE: Final = "second-draft-1.json"
"""The second draft in `audits/<id>/` (asked once per result), shaped like `draft-N.json`."""


# --- issues and conditions ---------------------------------------------------------------------


class IssueClass(StrEnum):
    ERROR = "ERROR"
    PAPER_ARGUMENT_GAP = "PAPER_ARGUMENT_GAP"
    PAPER_ASSUMPTION_GAP = "PAPER_ASSUMPTION_GAP"
    EXPOSITION_GAP = "EXPOSITION_GAP"
    DOMAIN_CLARIFICATION = "DOMAIN_CLARIFICATION"


class IssueSide(StrEnum):
    PAPER = "paper"
    FORMALIZATION = "formalization"
    UNKNOWN = "unknown"


class ConditionKind(StrEnum):
    CITED = "cited"  # (i) a cited result
    ASSERTED = "asserted"  # (ii) a fact the paper asserts without proof
    CLAUSE_UNVERIFIED = "clause_unverified"  # (iii) a clause of another result, not yet verified
    CLAUSE_WITH_ISSUE = "clause_with_issue"  # (iv) a clause of a result with a recorded issue
    MISSING_FROM_MATHLIB = "missing_from_mathlib"  # (v) a standard fact missing from Mathlib


# --- outputs -----------------------------------------------------------------------------------


class ReportFormat(StrEnum):
    """`paperlint report --format`: the files under `report/`."""

    MD = "md"
    HTML = "html"
    JSON = "json"
    SARIF = "sarif"
    BLUEPRINT = "blueprint"
    BLUEPRINT_WEB = "blueprint-web"  # a leanblueprint project, built with plasTeX (a folder)


# --- schema helper -----------------------------------------------------------------------------


class _Inline:
    """Show an enum in a JSON Schema as an inline `{"enum": […], "type": "string"}`.

    The agents' output schemas go into the prompts; inlining keeps them exactly as they were
    when these fields were `Literal`s (no `$defs` entry), so the prompts do not change."""

    def __init__(self, enum: type[StrEnum]) -> None:
        self._values = [member.value for member in enum]

    def __get_pydantic_json_schema__(self, schema: Any, handler: GetJsonSchemaHandler) -> Any:
        # From the enum itself, not by resolving the handler's `$ref`: inside a model with a
        # wrap serializer (`OmitUnused`) pydantic cannot resolve that ref in serialization mode.
        return {"enum": list(self._values), "type": "string"}


IssueClassField = Annotated[IssueClass, _Inline(IssueClass)]
IssueSideField = Annotated[IssueSide, _Inline(IssueSide)]
ConditionKindField = Annotated[ConditionKind, _Inline(ConditionKind)]

REPLAY_MISS: Final = "replay transcript has no entry for"
"""How a replay's missing answer begins: the model edge writes it (`agents.scripted`), the
report recognises it and moves it to the technical details (`reports.describe`)."""

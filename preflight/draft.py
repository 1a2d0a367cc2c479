"""The records preflight builds: plain slotted dataclasses with the fields, order and defaults
of the contract's pydantic models (`paperlint.preflight.model`, `paperlint.inventory/1`).

Preflight fills these and nothing else, so a `paperlint preflight` that prints a table or its
diagnostics never imports pydantic (its import and model construction were most of a short
paper's preflight) and a large inventory holds no per-instance `__dict__`. `contract` turns a
draft into the contract's `Inventory` where one is written or handed on (`-o`, `--format
json`, `--latex`, a check's workspace). `tests/preflight/test_draft.py` holds the two
definitions to the same fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, Literal

from paperlint.diagnostics import gnu_line

if TYPE_CHECKING:
    from paperlint.preflight import model

INVENTORY_SCHEMA: Final = "paperlint.inventory/1"

Kind = Literal[
    "theorem",
    "lemma",
    "proposition",
    "corollary",
    "claim",
    "definition",
    "assumption",
    "conjecture",
    "remark",
    "example",
    "other",
]
Severity = Literal["error", "warning", "info"]


@dataclass(slots=True, kw_only=True)
class DraftSpan:
    """Where a result or proof stands: file and 1-based lines (`model.Span`)."""

    file: str
    start_line: int
    end_line: int
    page: int | None = None


@dataclass(slots=True, kw_only=True)
class DraftProof:
    """A proof attached to a result (`model.Proof`)."""

    span: DraftSpan
    text: str
    attached_by: str = "next"
    leanok: bool = False


@dataclass(slots=True, kw_only=True)
class DraftCitation:
    """A `\\cite` key in a result's statement, proof or note (`model.Citation`)."""

    key: str
    note: str | None = None
    where: Literal["statement", "proof", "note"] = "statement"


@dataclass(slots=True, kw_only=True)
class DraftFileEntry:
    """A project file read, with its digest (`model.FileEntry`)."""

    path: str
    sha256: str


@dataclass(slots=True, kw_only=True)
class DraftEquationInfo:
    """A labelled equation's number and owning result (`model.EquationInfo`)."""

    number: str
    result: str | None = None


@dataclass(slots=True, kw_only=True)
class DraftBibEntry:
    """A bibliography entry (`model.BibEntry`)."""

    key: str
    text: str


@dataclass(slots=True, kw_only=True)
class DraftMacroParam:
    """One parameter of a user macro (`model.MacroParam`)."""

    kind: Literal["m", "o", "s"]
    default: str | None = None


@dataclass(slots=True, kw_only=True)
class DraftMacro:
    """A user macro definition (`model.Macro`)."""

    name: str
    definition: str
    arity: int = 0
    file: str | None = None
    line: int | None = None
    params: list[DraftMacroParam] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class DraftDiagnostic:
    """A problem found in the source (`model.Diagnostic`)."""

    severity: Severity
    file: str
    line: int | None = None
    code: str
    message: str
    column: int | None = None

    def render(self, file: str | None = None) -> str:
        """`file:line:column: severity: message [code]` (paperlint.diagnostics), the file
        shown as `file` when given."""
        shown = self.file if file is None else file
        return gnu_line(shown, self.line, self.column, self.severity, self.message, self.code)


@dataclass(slots=True, kw_only=True)
class DraftResult:
    """A numbered (or unnumbered) result of the paper (`model.Result`)."""

    id: str
    env: str
    kind: Kind
    title: str
    number: str | None
    note: str | None = None
    labels: list[str] = field(default_factory=list)
    statement: str
    span: DraftSpan
    proof: DraftProof | None = None
    uses: list[str] = field(default_factory=list)
    proof_uses: list[str] = field(default_factory=list)
    citations: list[DraftCitation] = field(default_factory=list)
    number_source: Literal["emulated", "latex", "pdf"] = "emulated"
    restates: str | None = None
    parent: str | None = None
    lean: list[str] = field(default_factory=list)
    leanok: bool = False
    mathlibok: bool = False


@dataclass(slots=True, kw_only=True)
class DraftInventory:
    """Everything preflight found (`model.Inventory`)."""

    root: str
    files: list[DraftFileEntry] = field(default_factory=list)
    results: list[DraftResult] = field(default_factory=list)
    equations: dict[str, DraftEquationInfo] = field(default_factory=dict)
    bibliography: list[DraftBibEntry] = field(default_factory=list)
    macros: list[DraftMacro] = field(default_factory=list)
    diagnostics: list[DraftDiagnostic] = field(default_factory=list)
    labels: dict[str, str] = field(default_factory=dict)
    source_kind: Literal["tex", "pdf"] = "tex"


def contract(draft: DraftInventory) -> model.Inventory:
    """The contract's `Inventory` (pydantic, validated) holding what `draft` held. The draft's
    results move over one at a time (`draft.results` is left empty), so a large paper never
    holds both forms of every result at once."""
    from paperlint.preflight.model import Inventory as Contract
    from paperlint.preflight.model import Result as ContractResult

    pending, draft.results = draft.results, []
    pending.reverse()
    results: list[model.Result] = []
    while pending:
        results.append(ContractResult.model_validate(pending.pop(), from_attributes=True))
    inventory = Contract.model_validate(draft, from_attributes=True)
    inventory.results = results
    return inventory

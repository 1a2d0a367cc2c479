"""The records preflight builds: plain slotted classes (`record.Record`) with the fields, order
and defaults of the contract's pydantic models (`paperlint.preflight.model`,
`paperlint.inventory/1`), written out rather than made by `@dataclass` at every import.

Preflight fills these and nothing else, so a `paperlint preflight` that prints a table or its
diagnostics never imports pydantic (its import and model construction were most of a short
paper's preflight) and a large inventory holds no per-instance `__dict__`. `contract` turns a
draft into the contract's `Inventory` where one is written or handed on (`-o`, `--format
json`, `--latex`, a check's workspace). `tests/preflight/test_draft.py` holds the two
definitions to the same fields.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Literal

from paperlint.diagnostics import gnu_line
from paperlint.preflight.record import Record

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


class DraftSpan(Record):
    """Where a result or proof stands: file and 1-based lines (`model.Span`)."""

    __slots__ = ("file", "start_line", "end_line", "page")
    file: str
    start_line: int
    end_line: int
    page: int | None

    def __init__(
        self,
        *,
        file: str,
        start_line: int,
        end_line: int,
        page: int | None = None,
    ) -> None:
        self.file = file
        self.start_line = start_line
        self.end_line = end_line
        self.page = page


class DraftProof(Record):
    """A proof attached to a result (`model.Proof`)."""

    __slots__ = ("span", "text", "attached_by", "leanok")
    span: DraftSpan
    text: str
    attached_by: str
    leanok: bool

    def __init__(
        self,
        *,
        span: DraftSpan,
        text: str,
        attached_by: str = "next",
        leanok: bool = False,
    ) -> None:
        self.span = span
        self.text = text
        self.attached_by = attached_by
        self.leanok = leanok


class DraftCitation(Record):
    """A `\\cite` key in a result's statement, proof or note (`model.Citation`)."""

    __slots__ = ("key", "note", "where")
    key: str
    note: str | None
    where: Literal["statement", "proof", "note"]

    def __init__(
        self,
        *,
        key: str,
        note: str | None = None,
        where: Literal["statement", "proof", "note"] = "statement",
    ) -> None:
        self.key = key
        self.note = note
        self.where = where


class DraftFileEntry(Record):
    """A project file read, with its digest (`model.FileEntry`)."""

    __slots__ = ("path", "sha256")
    path: str
    sha256: str

    def __init__(
        self,
        *,
        path: str,
        sha256: str,
    ) -> None:
        self.path = path
        self.sha256 = sha256


class DraftEquationInfo(Record):
    """A labelled equation's number and owning result (`model.EquationInfo`)."""

    __slots__ = ("number", "result")
    number: str
    result: str | None

    def __init__(
        self,
        *,
        number: str,
        result: str | None = None,
    ) -> None:
        self.number = number
        self.result = result


class DraftBibEntry(Record):
    """A bibliography entry (`model.BibEntry`)."""

    __slots__ = ("key", "text")
    key: str
    text: str

    def __init__(
        self,
        *,
        key: str,
        text: str,
    ) -> None:
        self.key = key
        self.text = text


class DraftMacroParam(Record):
    """One parameter of a user macro (`model.MacroParam`)."""

    __slots__ = ("kind", "default")
    kind: Literal["m", "o", "s"]
    default: str | None

    def __init__(
        self,
        *,
        kind: Literal["m", "o", "s"],
        default: str | None = None,
    ) -> None:
        self.kind = kind
        self.default = default


class DraftMacro(Record):
    """A user macro definition (`model.Macro`)."""

    __slots__ = ("name", "definition", "arity", "file", "line", "params")
    name: str
    definition: str
    arity: int
    file: str | None
    line: int | None
    params: list[DraftMacroParam]

    def __init__(
        self,
        *,
        name: str,
        definition: str,
        arity: int = 0,
        file: str | None = None,
        line: int | None = None,
        params: list[DraftMacroParam] | None = None,
    ) -> None:
        self.name = name
        self.definition = definition
        self.arity = arity
        self.file = file
        self.line = line
        self.params = [] if params is None else params


class DraftDiagnostic(Record):
    """A problem found in the source (`model.Diagnostic`)."""

    __slots__ = ("severity", "file", "line", "code", "message", "column")
    severity: Severity
    file: str
    line: int | None
    code: str
    message: str
    column: int | None

    def __init__(
        self,
        *,
        severity: Severity,
        file: str,
        line: int | None = None,
        code: str,
        message: str,
        column: int | None = None,
    ) -> None:
        self.severity = severity
        self.file = file
        self.line = line
        self.code = code
        self.message = message
        self.column = column

    def render(self, file: str | None = None) -> str:
        """`file:line:column: severity: message [code]` (paperlint.diagnostics), the file
        shown as `file` when given."""
        shown = self.file if file is None else file
        return gnu_line(shown, self.line, self.column, self.severity, self.message, self.code)


class DraftResult(Record):
    """A numbered (or unnumbered) result of the paper (`model.Result`)."""

    __slots__ = (
        "id",
        "env",
        "kind",
        "title",
        "number",
        "note",
        "labels",
        "statement",
        "span",
        "proof",
        "uses",
        "proof_uses",
        "citations",
        "number_source",
        "restates",
        "parent",
        "lean",
        "leanok",
        "mathlibok",
    )
    id: str
    env: str
    kind: Kind
    title: str
    number: str | None
    note: str | None
    labels: list[str]
    statement: str
    span: DraftSpan
    proof: DraftProof | None
    uses: list[str]
    proof_uses: list[str]
    citations: list[DraftCitation]
    number_source: Literal["emulated", "latex", "pdf"]
    restates: str | None
    parent: str | None
    lean: list[str]
    leanok: bool
    mathlibok: bool

    def __init__(
        self,
        *,
        id: str,
        env: str,
        kind: Kind,
        title: str,
        number: str | None,
        note: str | None = None,
        labels: list[str] | None = None,
        statement: str,
        span: DraftSpan,
        proof: DraftProof | None = None,
        uses: list[str] | None = None,
        proof_uses: list[str] | None = None,
        citations: list[DraftCitation] | None = None,
        number_source: Literal["emulated", "latex", "pdf"] = "emulated",
        restates: str | None = None,
        parent: str | None = None,
        lean: list[str] | None = None,
        leanok: bool = False,
        mathlibok: bool = False,
    ) -> None:
        self.id = id
        self.env = env
        self.kind = kind
        self.title = title
        self.number = number
        self.note = note
        self.labels = [] if labels is None else labels
        self.statement = statement
        self.span = span
        self.proof = proof
        self.uses = [] if uses is None else uses
        self.proof_uses = [] if proof_uses is None else proof_uses
        self.citations = [] if citations is None else citations
        self.number_source = number_source
        self.restates = restates
        self.parent = parent
        self.lean = [] if lean is None else lean
        self.leanok = leanok
        self.mathlibok = mathlibok


class DraftInventory(Record):
    """Everything preflight found (`model.Inventory`)."""

    __slots__ = (
        "root",
        "files",
        "results",
        "equations",
        "bibliography",
        "macros",
        "diagnostics",
        "labels",
        "source_kind",
    )
    root: str
    files: list[DraftFileEntry]
    results: list[DraftResult]
    equations: dict[str, DraftEquationInfo]
    bibliography: list[DraftBibEntry]
    macros: list[DraftMacro]
    diagnostics: list[DraftDiagnostic]
    labels: dict[str, str]
    source_kind: Literal["tex", "pdf"]

    def __init__(
        self,
        *,
        root: str,
        files: list[DraftFileEntry] | None = None,
        results: list[DraftResult] | None = None,
        equations: dict[str, DraftEquationInfo] | None = None,
        bibliography: list[DraftBibEntry] | None = None,
        macros: list[DraftMacro] | None = None,
        diagnostics: list[DraftDiagnostic] | None = None,
        labels: dict[str, str] | None = None,
        source_kind: Literal["tex", "pdf"] = "tex",
    ) -> None:
        self.root = root
        self.files = [] if files is None else files
        self.results = [] if results is None else results
        self.equations = {} if equations is None else equations
        self.bibliography = [] if bibliography is None else bibliography
        self.macros = [] if macros is None else macros
        self.diagnostics = [] if diagnostics is None else diagnostics
        self.labels = {} if labels is None else labels
        self.source_kind = source_kind


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

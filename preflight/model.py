"""The inventory record (contract: `paperlint.inventory/1`, docs/design.md §4)."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from paperlint.diagnostics import gnu_line
from paperlint.preflight.draft import INVENTORY_SCHEMA as INVENTORY_SCHEMA
from paperlint.preflight.draft import Kind as Kind
from paperlint.preflight.draft import Severity as Severity


class _Record(BaseModel):
    """An inventory record. Each instance shares its class's one set of every field name as
    its fields-set: pydantic otherwise gives every instance a set of its own (the largest single
    cost of a result, 17 % of what the inventory holds). No code here asks which fields were
    set explicitly (`exclude_unset`); a set already holding every field is never changed by an
    assignment or `model_copy(update=...)` (which copies it), so sharing it is safe."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    _every_field: ClassVar[set[str]] = set()

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        cls._every_field = set(cls.model_fields)

    def model_post_init(self, context: Any, /) -> None:
        object.__setattr__(self, "__pydantic_fields_set__", self._every_field)


class Span(_Record):
    file: str
    start_line: int
    end_line: int
    # PDF inputs locate by page (1-based) and line within the page instead of source lines.
    page: int | None = None


class Proof(_Record):
    span: Span
    text: str
    # how the proof was attached: "next" (the proof environment that follows), "reference"
    # (Proof of \ref{x}), "paragraph" (a "Proof." paragraph), "proves" (\proves{x}), "pdf"
    attached_by: str = "next"
    # leanblueprint: `\leanok` written in the proof (the proof is formalised)
    leanok: bool = False


class Citation(_Record):
    key: str
    note: str | None = None
    where: Literal["statement", "proof", "note"] = "statement"


class FileEntry(_Record):
    path: str
    sha256: str


class EquationInfo(_Record):
    number: str
    result: str | None = None


class BibEntry(_Record):
    key: str
    text: str


class MacroParam(_Record):
    """One parameter of a macro: `m` mandatory, `o` optional `[...]` (`default`: what an
    absent one stands for; None: xparse's -NoValue-), `s` a star."""

    kind: Literal["m", "o", "s"]
    default: str | None = None


class Macro(_Record):
    name: str
    definition: str
    arity: int = 0
    file: str | None = None
    line: int | None = None
    # the parameters in order, where they differ from `arity` mandatory ones (an optional
    # first argument, a star); empty in inventories written before they were recorded
    params: list[MacroParam] = Field(default_factory=list)


class Diagnostic(_Record):
    severity: Severity
    file: str
    line: int | None = None
    code: str
    message: str
    column: int | None = None  # 1-based, in characters; None where only the line is known

    def render(self, file: str | None = None) -> str:
        """`file:line:column: severity: message [code]` (paperlint.diagnostics), the file
        shown as `file` when given."""
        shown = self.file if file is None else file
        return gnu_line(shown, self.line, self.column, self.severity, self.message, self.code)


class Result(_Record):
    id: str
    env: str
    kind: Kind
    title: str
    number: str | None
    note: str | None = None
    labels: list[str] = Field(default_factory=list)
    statement: str
    span: Span
    proof: Proof | None = None
    uses: list[str] = Field(default_factory=list)
    proof_uses: list[str] = Field(default_factory=list)
    citations: list[Citation] = Field(default_factory=list)
    # where the printed number came from: "emulated", "latex" (a compiled .aux), or "pdf"
    number_source: Literal["emulated", "latex", "pdf"] = "emulated"
    # the id of the result this one restates (thmtools restatable, hand-made restatements)
    restates: str | None = None
    # the result id this one is nested in (a claim inside a proof), if any
    parent: str | None = None
    # leanblueprint marks: the Lean declarations named by `\lean{...}`, `\leanok` in the
    # statement (the statement is formalised) and `\mathlibok` (it is already in Mathlib)
    lean: list[str] = Field(default_factory=list)
    leanok: bool = False
    mathlibok: bool = False


class Inventory(_Record):
    schema_: Literal["paperlint.inventory/1"] = Field(default=INVENTORY_SCHEMA, alias="schema")
    root: str
    files: list[FileEntry] = Field(default_factory=list)
    results: list[Result] = Field(default_factory=list)
    equations: dict[str, EquationInfo] = Field(default_factory=dict)
    bibliography: list[BibEntry] = Field(default_factory=list)
    macros: list[Macro] = Field(default_factory=list)
    diagnostics: list[Diagnostic] = Field(default_factory=list)
    # every \label with the number LaTeX writes for it (results, equations, sections, items)
    labels: dict[str, str] = Field(default_factory=dict)
    # "tex" or "pdf"
    source_kind: Literal["tex", "pdf"] = "tex"

    def result(self, result_id: str) -> Result | None:
        return next((r for r in self.results if r.id == result_id), None)

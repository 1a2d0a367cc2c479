"""The blueprint record (`paperlint.blueprint/1`): the plan the drafter and the queue work from."""

from __future__ import annotations

from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from paperlint.preflight.model import Diagnostic, Kind

BLUEPRINT_SCHEMA: Final = "paperlint.blueprint/1"

EdgeKind = Literal["statement", "proof"]


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class ExternalInput(_Record):
    """A cited result a proof or statement relies on; it becomes a named hypothesis (kind (i))."""

    key: str
    locator: str | None = None  # "Theorem 2", from \cite[Theorem 2]{key}
    where: Literal["statement", "proof", "note"] = "statement"
    bib_text: str | None = None  # None when the key is not in the bibliography


class FidelityHints(_Record):
    """The fields the gate reviews (docs/design.md §6). Preflight fills cheap, deterministic hints
    from the TeX; an empty string means "no hint", not "nothing there": the drafter fills them."""

    object_class: str = ""
    quantifier_order: str = ""
    parameter_domains: str = ""
    codomain: str = ""
    hypotheses: str = ""  # hypotheses and side conditions
    conclusion: str = ""
    follow_on_claims: str = ""


class Edge(_Record):
    """`target` uses `source`: edges point from a dependency to the result that needs it, so a
    topological order lists dependencies first."""

    source: str
    target: str
    kind: EdgeKind


class BlueprintEntry(_Record):
    id: str
    number: str | None
    kind: Kind
    verdict_bearing: bool
    lean_name: str
    module: str  # "Paper.Lemma_A_2"
    lean_file: str  # workspace-relative: "lean/Paper/Lemma_A_2.lean"
    statement_uses: list[str] = Field(default_factory=list)
    proof_uses: list[str] = Field(default_factory=list)
    external_inputs: list[ExternalInput] = Field(default_factory=list)
    macros_used: list[str] = Field(default_factory=list)
    fidelity: FidelityHints = Field(default_factory=FidelityHints)
    statement_sha256: str
    proof_sha256: str | None = None  # None when the paper gives no proof


class Blueprint(_Record):
    schema_: Literal["paperlint.blueprint/1"] = Field(default=BLUEPRINT_SCHEMA, alias="schema")
    entries: list[BlueprintEntry] = Field(default_factory=list)
    # topological: dependencies first; among ready results definitions and assumptions first,
    # then document order
    order: list[str] = Field(default_factory=list)
    cycles: list[list[str]] = Field(default_factory=list)
    edges: list[Edge] = Field(default_factory=list)
    # edges left out of the order to break cycles; they stay in `edges`, the paper's true graph
    dropped_edges: list[Edge] = Field(default_factory=list)
    diagnostics: list[Diagnostic] = Field(default_factory=list)

    def entry(self, result_id: str) -> BlueprintEntry | None:
        return next((e for e in self.entries if e.id == result_id), None)

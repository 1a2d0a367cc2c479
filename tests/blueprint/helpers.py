"""Hand-built inventories: the blueprint is tested without running preflight."""

from __future__ import annotations

from typing import Any

from paperlint.preflight.model import Inventory, Proof, Result, Span


def result(
    rid: str,
    kind: str = "lemma",
    *,
    number: str | None = None,
    labels: list[str] | None = None,
    statement: str = "A statement.",
    proof: str | None = None,
    line: int = 1,
    **fields: Any,
) -> Result:
    span = Span(file="main.tex", start_line=line, end_line=line + 2)
    return Result(
        id=rid,
        env=fields.pop("env", kind),
        kind=kind,
        title=kind.capitalize(),
        number=number,
        labels=[rid] if labels is None and ":" in rid else (labels or []),
        statement=statement,
        span=span,
        proof=Proof(span=span, text=proof) if proof is not None else None,
        **fields,
    )


def inventory(*results: Result, **fields: Any) -> Inventory:
    return Inventory(root="main.tex", results=list(results), **fields)

"""A plain-text table of an inventory, for the terminal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from paperlint.preflight import draft

if TYPE_CHECKING:
    from paperlint.preflight import model


def _row(result: draft.DraftResult | model.Result) -> list[str]:
    return [
        result.number or "-",
        result.kind,
        result.labels[0] if result.labels else "-",
        _where(result.span),
        "yes" if result.proof is not None else "no",
        ", ".join(result.uses) or "-",
    ]


def text_table(inventory: draft.DraftInventory | model.Inventory) -> str:
    """Columns: number, kind, label, file:line, proof, uses."""
    header = ["number", "kind", "label", "where", "proof", "uses"]
    rows = [header] + [_row(r) for r in inventory.results]
    widths = [max(len(row[i]) for row in rows) for i in range(len(header) - 1)]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=False)) + "  " + row[-1]
        for row in rows
    ]
    lines.append(f"{len(inventory.results)} results in {inventory.root}")
    return "\n".join(line.rstrip() for line in lines)


def _where(span: draft.DraftSpan | model.Span) -> str:
    """`file:line`, or `file:p3:12` for a PDF (line 12 of page 3)."""
    if span.page is not None:
        return f"{span.file}:p{span.page}:{span.start_line}"
    return f"{span.file}:{span.start_line}"

"""Builders for hand-made line records, so the head and layout logic runs without a PDF."""

from __future__ import annotations

from paperlint.preflight.pdf.records import Line, Page, Run

BODY = 10.0


def run(text: str, font: str = "CMR10", size: float = BODY) -> Run:
    return Run(text, font, size)


def line(y: float, *runs: Run | str, x0: float = 72.0, x1: float = 540.0, page: int = 1) -> Line:
    made = tuple(r if isinstance(r, Run) else run(r) for r in runs)
    return Line(page, x0, y, x1, y + 8.0, made)


def page(*lines: Line, number: int = 1, width: float = 612.0, height: float = 792.0) -> Page:
    return Page(number, width, height, tuple(lines))


def paragraph(
    top: float, count: int, text: str = "plain body text of the paper", **kw
) -> list[Line]:
    """`count` lines of regular body text 12 pt apart, starting at `top`."""
    return [line(top - 12.0 * i, text, **kw) for i in range(count)]

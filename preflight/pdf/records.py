"""Plain records of what a PDF holds, decoupled from pdfminer so the logic is testable.

The extraction edge (`extract.py`) is the only module that imports pdfminer; everything else
works on these frozen records, which tests can build by hand.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Run:
    """Consecutive characters of one line set in one font (spaces join the run before them)."""

    text: str
    font: str  # subset prefix stripped: "CMBX10", "NimbusRomNo9L-Medi"
    size: float


@dataclass(frozen=True)
class Line:
    """One text line; y grows upward as in PDF user space."""

    page: int  # 1-based physical page
    x0: float
    y0: float
    x1: float
    y1: float
    runs: tuple[Run, ...]

    @property
    def text(self) -> str:
        return "".join(run.text for run in self.runs)

    @property
    def size(self) -> float:
        """The size of the line's body text: the size most of its characters have."""
        weights: dict[float, int] = {}
        for run in self.runs:
            key = round(run.size, 1)
            weights[key] = weights.get(key, 0) + len(run.text.strip())
        return max(weights, key=lambda k: weights[k]) if weights else 0.0


@dataclass(frozen=True)
class Page:
    number: int  # 1-based
    width: float
    height: float
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class Destination:
    """A named destination (hyperref anchor), e.g. `theorem.3.1` on page 6 at y=583.7."""

    name: str
    page: int  # 1-based
    y: float | None
    x: float | None = None


@dataclass(frozen=True)
class PdfDocument:
    name: str  # the file name, used in spans and diagnostics
    pages: tuple[Page, ...]
    destinations: tuple[Destination, ...] = ()

"""LaTeX → plain text for the short pieces preflight reports as text (head titles and notes
of plain-TeX heads): accents become Unicode (`Th\\'eor\\`eme` → `Théorème`), font switches
and grouping braces go, math stays as written. pylatexenc does the parsing; it never raises
on bad input here (a malformed piece falls back to the source text)."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pylatexenc.latex2text import LatexNodes2Text


@lru_cache(maxsize=1)
def _converter() -> LatexNodes2Text:
    # imported on the first piece that needs it: most papers' titles are plain words
    from pylatexenc.latex2text import LatexNodes2Text

    return LatexNodes2Text(math_mode="verbatim", strict_latex_spaces=False)


def latex_to_text(latex: str) -> str:
    if "\\" not in latex and "{" not in latex and "~" not in latex:
        return latex.strip()
    try:
        text = _converter().latex_to_text(latex)
    except Exception:  # pylatexenc on hostile input: keep the source rather than fail
        return latex.strip()
    return " ".join(text.split())

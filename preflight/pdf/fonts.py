"""Font-name heuristics: pdfminer keeps names, not descriptor flags (docs/latex-notes.md §19.1)."""

from __future__ import annotations

import re

# Bold weights seen in TeX PDFs: CMBX10, LMRoman12-Bold, NimbusRomNo9L-Medi, plus the usual
# foundry words and `-B`/`.B` suffixes (docs/latex-notes.md §19.2).
_BOLD = re.compile(
    r"bold|medi|semibold|demi|black|heavy|bx|[-.]b$|[-.]b[-.]|^Lin(?:Libertine|Biolinum)[TO]?[BZ]",
    re.IGNORECASE,
)
# Linux Libertine's Type 1 names carry the shape as a suffix: LinLibertineTI is the italic,
# LinLibertineTB the bold, LinLibertineTBI both (acmart's fonts)
_ITALIC = re.compile(
    r"ital|oblique|slant|cmti|cmsl|cmbxti|lmroman\d*-it|-it$|[-.]i$"
    r"|^Lin(?:Libertine|Biolinum)[TO]?[BZ]?I$",
    re.I,
)
_SMALL_CAPS = re.compile(r"csc|caps|sc$|sc\d|-sc|rc$", re.IGNORECASE)
# Math fonts never carry a head word; a line that begins in one is never a head.
_MATH = re.compile(r"^(cmmi|cmsy|cmex|msam|msbm|lmmath|eufm|rsfs|stmary|cmmib)", re.I)


def is_bold(font: str) -> bool:
    return bool(_BOLD.search(font)) and not is_math(font)


def is_italic(font: str) -> bool:
    return bool(_ITALIC.search(font)) and not is_math(font)


def is_small_caps(font: str) -> bool:
    return bool(_SMALL_CAPS.search(font))


def is_math(font: str) -> bool:
    return bool(_MATH.match(font))


def is_strong(font: str) -> bool:
    """Bold or small caps: the weights theorem heads use (plain, definition, imsart)."""
    return is_bold(font) or is_small_caps(font)


def is_upright_regular(font: str) -> bool:
    return not (is_bold(font) or is_italic(font) or is_small_caps(font) or is_math(font))

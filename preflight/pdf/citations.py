"""The bibliography section and the citations that point into it (numeric, alpha, author-year)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

from paperlint.preflight.model import BibEntry, Citation
from paperlint.preflight.pdf.fonts import is_strong
from paperlint.preflight.pdf.layout import ReadLine
from paperlint.preflight.pdf.text import join_lines

_BIB_HEADING = re.compile(r"^(?:\d+\s+|[A-Z]\s+)?(references|bibliography|literature cited)$", re.I)
_LABEL = re.compile(r"^\[(?P<label>[^\[\]]{1,20})\]\s*")
_YEAR = re.compile(r"\b(1[89]\d\d|20\d\d)[a-z]?\b")
_SURNAME = re.compile(r"\b([A-Z][a-zà-ÿ'`-]+(?:[A-Z][a-z]+)?)\b")
_NUMERIC = re.compile(r"^\d+$")
_RANGE = re.compile(r"^(\d+)\s*[-–]\s*(\d+)$")
_ALPHA = re.compile(r"^[A-Z][A-Za-z+]{0,7}\d{2,4}[a-z]?$")
_BRACKET = re.compile(r"\[([^\[\]]{1,80})\]")
_AUTHOR = r"[A-Z][\w'`-]+(?:\s+(?:and|&)\s+[A-Z][\w'`-]+|\s+et\s+al\.?)?"
_TEXTUAL = re.compile(
    rf"(?P<author>{_AUTHOR})\s+\((?P<year>\d{{4}}[a-z]?)(?:,\s*(?P<note>[^()]+))?\)"
)
_PAREN = re.compile(r"\(([^()]*\b\d{4}[a-z]?\b[^()]*)\)")
_PAREN_PIECE = re.compile(rf"(?P<author>{_AUTHOR}),?\s+(?P<year>\d{{4}}[a-z]?)")


def find_bibliography_start(lines: Sequence[ReadLine]) -> int | None:
    """Index of the last "References"/"Bibliography" heading set in a heading font."""
    found = None
    for index, read in enumerate(lines):
        first = read.line.runs[0] if read.line.runs else None
        heading_font = first is not None and (is_strong(first.font) or first.size > 11.5)
        if heading_font and _BIB_HEADING.match(read.text.strip()):
            found = index
    return found


def parse_bibliography(lines: Sequence[ReadLine]) -> list[BibEntry]:
    """Split the lines after the heading into entries: at "[12]" labels when the style prints
    them, else at the hanging indent of author-year styles (continuations are indented)."""
    if not lines:
        return []
    labelled = sum(1 for read in lines if _LABEL.match(read.text))
    groups: list[list[ReadLine]] = []
    for read in lines:
        starts = _LABEL.match(read.text) if labelled else read.indent <= 2.0
        if starts or not groups:
            groups.append([read])
        else:
            groups[-1].append(read)
    entries = [_entry(group, index, bool(labelled)) for index, group in enumerate(groups, 1)]
    return [entry for entry in entries if entry.text]


def _entry(group: list[ReadLine], index: int, labelled: bool) -> BibEntry:
    text = join_lines([read.text for read in group])
    if labelled:
        m = _LABEL.match(text)
        if m:
            return BibEntry(key=m.group("label").strip(), text=text[m.end() :].strip())
    return BibEntry(key=_author_year_key(text) or f"ref{index}", text=text)


def _author_year_key(text: str) -> str | None:
    """ "H. Robbins and S. Monro. … 1951." becomes "Robbins1951": first surname + first year."""
    year = _YEAR.search(text)
    surname = next((m.group(1) for m in _SURNAME.finditer(text) if len(m.group(1)) > 1), None)
    return f"{surname}{year.group(0)}" if year and surname else None


Where = Literal["statement", "proof", "note"]


def find_citations(text: str, bib: Sequence[BibEntry], where: Where) -> list[Citation]:
    """Citations in `text` resolved to bibliography keys; unresolvable ones are dropped,
    because "[0, 1]" is an interval and "(1951)" may be a year, not a citation."""
    keys = {entry.key for entry in bib}
    found = _bracket_citations(text, keys) + _author_year_citations(text, bib)
    seen: set[tuple[str, str | None]] = set()
    out = []
    for key, note in found:
        if (key, note) not in seen:
            seen.add((key, note))
            out.append(Citation(key=key, note=note, where=where))
    return out


def _bracket_citations(text: str, keys: set[str]) -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    for m in _BRACKET.finditer(text):
        cited: list[str] = []
        note = None
        for piece in (p.strip() for p in re.split(r"[,;]", m.group(1))):
            expanded = _expand(piece)
            if expanded and all(key in keys for key in expanded):
                cited.extend(expanded)
            elif cited and note is None:
                note = piece  # "[3, Theorem 2]": the rest is the pin-point note
            else:
                cited = []
                break
        out.extend((key, note) for key in cited)
    return out


def _expand(piece: str) -> list[str]:
    if _NUMERIC.match(piece) or _ALPHA.match(piece):
        return [piece]
    m = _RANGE.match(piece)
    if m and 0 < int(m.group(2)) - int(m.group(1)) < 30:
        return [str(n) for n in range(int(m.group(1)), int(m.group(2)) + 1)]
    return []


def _author_year_citations(text: str, bib: Sequence[BibEntry]) -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    for m in _TEXTUAL.finditer(text):
        key = _resolve(m.group("author"), m.group("year"), bib)
        if key:
            out.append((key, m.group("note")))
    for m in _PAREN.finditer(text):
        for piece in m.group(1).split(";"):
            p = _PAREN_PIECE.search(piece)
            key = _resolve(p.group("author"), p.group("year"), bib) if p else None
            if key:
                out.append((key, None))
    return out


def _resolve(author: str, year: str, bib: Sequence[BibEntry]) -> str | None:
    surname = author.split()[0]
    for entry in bib:
        if surname in entry.text and year in entry.text:
            return entry.key
    return None

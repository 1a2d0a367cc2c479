"""Recognise theorem-like heads in lines of text, from fonts or from hyperref destinations.

A head is "Theorem 3.1 (Note)." at the start of a line, in one of the head styles of
docs/latex-notes.md §3, §12, §19.2. A reference that merely starts a line ("Theorem 3.1 shows …") is
set in the body font, so the font of the head word decides, backed by punctuation and the
vertical gap LaTeX's \\topsep leaves above a theorem.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from paperlint.preflight.model import Kind
from paperlint.preflight.pdf.fonts import is_italic, is_math, is_strong, is_upright_regular
from paperlint.preflight.pdf.layout import ReadLine
from paperlint.preflight.pdf.records import Destination, Run
from paperlint.preflight.pdf.text import join_lines, normalise

Confidence = Literal["high", "medium", "low"]
Method = Literal["named-destination", "font-head"]

KINDS: dict[str, Kind] = {
    "theorem": "theorem",
    "lemma": "lemma",
    "proposition": "proposition",
    "corollary": "corollary",
    "claim": "claim",
    "definition": "definition",
    "assumption": "assumption",
    "conjecture": "conjecture",
    "remark": "remark",
    "example": "example",
}
_OTHER_WORDS = (
    "hypothesis|condition|fact|observation|problem|question|notation|exercise|property|"
    "axiom|note|algorithm|construction|result|setting|scenario"
)
# Only the word is case-insensitive ("THEOREM" in imsart); the number is not, or "Claim II"
# and "Lemma as" would pass for numbered heads.
WORD = rf"(?i:{'|'.join(KINDS)}|{_OTHER_WORDS})"
# "3.1", "A.2", "A1", a chapter in Roman numerals ("II.5", amsbook \thechapter), and an
# empty section number (".1": revtex's Physical Review Letters numbers no section)
NUMBER = r"(?:(?:[IVX]{2,5}|[A-Z])(?:\.\d+)+|[A-Z]\d*|\.?\d+(?:\.\d+)*)[a-z]?"
_NOTE = r"\((?P<note>[^()]*(?:\([^()]*\)[^()]*)*)\)"
_TAIL = rf"\s*(?:{_NOTE})?\s*(?P<punct>[.:])?"
# a head word may carry capitalised words before it: "Main Theorem 1", "Key Lemma 2.3"
_PREFIX = r"(?:[A-Z][a-z]+\s+){0,2}"
_HEAD = re.compile(rf"^(?P<word>{_PREFIX}{WORD})(?:\s+(?P<number>{NUMBER}))?(?![\w-]){_TAIL}")
# at a hyperref anchor any capitalised words may be the head ("Hauptsatz 2.", "Standing
# Hypothesis H1.", "Issue/TODO 18."): the anchor says a result starts there, the style says
# this is its head
_CUSTOM = re.compile(
    rf"^(?P<word>[A-Z][A-Za-z-]+(?:/[A-Za-z]+)?(?:\s+[A-Z][A-Za-z-]+){{0,2}})"
    rf"\s+(?P<number>{NUMBER})"
    rf"(?![\w-]){_TAIL}"
)
# LIPIcs sets "▶ Lemma 1." (msam's \blacktriangleright): an ornament before the head word
_ORNAMENT = re.compile(r"^[\s\u25a0-\u25ff\u2600-\u27bf]*")
# ntheorem `change` and amsthm \swapnumbers print the number first: "1 Proposition".
_SWAPPED = re.compile(rf"^(?P<number>{NUMBER})\s+(?P<word>{WORD})(?![\w-]){_TAIL}")
# A head word is body-sized; a bigger line with "2 Lemma …" is a section title.
_SIZE_SLACK = 0.6
# The gap above a head exceeds the normal baseline skip by LaTeX's \topsep (≥ ~4 pt).
_GAP_FACTOR = 1.2
_NOT_RESULT_DEST = re.compile(
    r"^(doc-start|page|(sub)*section\*?|chapter\*?|part\*?|(sub)?paragraph\*?|appendix|"
    r"equation|amsa?|item|hfootnote|footnote|mpfootnote|figure|table|cite|lstlisting|"
    r"algorithm|algocf|algocfline|algoline|alc@.*|enumi+v?|subfigure|subtable|proof|qed|toc.*|lof|lot|"
    r"section|bib.*|index.*|glo.*|page\..*)$",
    re.I,
)


@dataclass(frozen=True)
class Head:
    index: int  # position of the head line in the reading order
    word: str  # the printed head word, e.g. "Theorem"
    kind: Kind
    number: str | None
    note: str | None
    rest: str  # the text after the head on its line
    method: Method
    confidence: Confidence
    lines: int = 1  # 2 when a long note wraps onto the next line


@dataclass(frozen=True)
class _Match:
    word: str
    number: str | None
    note: str | None
    punct: bool
    word_at: int
    number_at: int
    end: int


def kind_of(word: str) -> Kind:
    last = word.split()[-1].lower() if word.split() else ""
    return KINDS.get(last, "other")


def match_head_text(text: str, *, custom: bool = False) -> _Match | None:
    """Parse "Theorem 3.1 (Note)." or "3.1 Proposition." at the start of `text` (with
    `custom`, also any capitalised head words followed by a number)."""
    stripped = _ORNAMENT.sub("", text)
    offset = len(text) - len(stripped)
    for pattern in (_HEAD, _SWAPPED, _CUSTOM) if custom else (_HEAD, _SWAPPED):
        m = pattern.match(stripped)
        if m and m.group("word")[0].isupper():
            has_number = m.group("number") is not None
            return _Match(
                word=m.group("word"),
                number=m.group("number"),
                note=(m.group("note") or "").strip() or None,
                punct=m.group("punct") is not None,
                word_at=offset + m.start("word"),
                number_at=offset + m.start("number") if has_number else -1,
                end=offset + m.end(),
            )
    return None


def _run_at(read: ReadLine, offset: int) -> Run | None:
    """The run holding character `offset` of the normalised line text ("Deﬁnition" is one
    character longer once normalised, so offsets are counted on normalised runs)."""
    position = 0
    for run in read.line.runs:
        position += len(normalise(run.text))
        if offset < position:
            return run
    return read.line.runs[-1] if read.line.runs else None


def font_at(read: ReadLine, offset: int) -> str:
    run = _run_at(read, offset)
    return run.font if run is not None else ""


def size_at(read: ReadLine, offset: int) -> float:
    run = _run_at(read, offset)
    return run.size if run is not None else 0.0


def find_font_heads(lines: Sequence[ReadLine], body_size: float, skip: float) -> list[Head]:
    """Heads recognised from the fonts alone, with a confidence."""
    heads = []
    for index, read in enumerate(lines):
        m = match_head_text(read.text)
        if m is None or abs(size_at(read, m.word_at) - body_size) > _SIZE_SLACK:
            continue
        confidence = _font_confidence(read, m, skip)
        if confidence is not None:
            heads.append(_head(lines, index, m, "font-head", confidence))
    return heads


def _font_confidence(read: ReadLine, m: _Match, skip: float) -> Confidence | None:
    if m.word.lower() == "algorithm" and not read.text[: m.end].rstrip().endswith("."):
        # "Algorithm 1: …" or "Algorithm 1 Title" is a float caption (algorithm2e,
        # algorithm); a theorem-like \newtheorem{alg}{Algorithm} prints "Algorithm 4.1."
        return None
    word_font = font_at(read, m.word_at)
    gap = read.gap_above is None or read.gap_above > skip * _GAP_FACTOR
    if is_strong(word_font):
        if not (m.punct or m.note or _head_font_ends(read, m)):
            return None
        if m.number is None and not (m.punct and gap):
            return None
        return "high" if gap else "medium"
    if is_italic(word_font) and m.punct and m.number is not None and _italic_head_ends(read, m):
        # IEEEtran "Theorem 1:": an italic head, number included, then an upright statement
        return "medium" if gap else "low"
    if is_italic(word_font) and m.punct:
        # amsthm remark style prints an italic name and an upright number; a reference inside
        # an italic theorem body has an italic number too, so it fails this test.
        if m.number is not None and is_upright_regular(font_at(read, m.number_at)):
            return "medium" if gap else "low"
        if m.number is None and gap and m.word.lower() in {"remark", "claim", "example"}:
            return "low"
    return None


def _italic_head_ends(read: ReadLine, m: _Match) -> bool:
    """The italic head's font ends at its punctuation and the text goes on upright: a
    reference inside an italic statement ("… by Lemma 2: …") is followed by italic text."""
    after = len(read.text) - len(read.text[m.end :].lstrip())  # the statement's first glyph
    if after >= len(read.text.rstrip()):
        return False
    return is_italic(font_at(read, m.number_at)) and is_upright_regular(font_at(read, after))


def _head_font_ends(read: ReadLine, m: _Match) -> bool:
    """The kernel head "Theorem 1 (Name)" has no period: the bold run must end with the head."""
    head_font = font_at(read, m.word_at)
    if m.end >= len(read.text.rstrip()):
        return True
    following = font_at(read, m.end)
    return following != head_font or is_math(following)


def _head(
    lines: Sequence[ReadLine], index: int, m: _Match, method: Method, conf: Confidence
) -> Head:
    text, used = lines[index].text, 1
    if m.note is None and text[m.end :].lstrip().startswith("(") and index + 1 < len(lines):
        # "Theorem 3.1 (A long name that" + "wraps). Let …": read the note across the break
        joined = join_lines([text, lines[index + 1].text])
        wrapped = match_head_text(joined)
        if wrapped is not None and wrapped.note is not None:
            text, used, m = joined, 2, wrapped
    return Head(
        index=index,
        word=m.word,
        kind=kind_of(m.word),
        number=m.number,
        note=m.note,
        rest=text[m.end :].strip(),
        method=method,
        confidence=conf,
        lines=used,
    )


def is_result_destination(name: str) -> bool:
    prefix = name.split(".", 1)[0]
    return "." in name and not _NOT_RESULT_DEST.match(prefix)


def placeholder_anchors(destinations: Sequence[Destination]) -> Counter[str]:
    """Per environment name, the result anchors pdfTeX replaced by a fixed one: a name that
    was referenced but never set (hyperref's anchor of that result was a duplicate and got
    dropped) becomes `[first page /Fit]`. Each vouches for one head of its environment that
    has no anchor of its own."""
    return Counter(
        d.name.split(".", 1)[0].lower()
        for d in destinations
        if is_result_destination(d.name) and d.page == 1 and d.x is None and d.y is None
    )


def find_destination_heads(
    lines: Sequence[ReadLine], destinations: Sequence[Destination]
) -> list[Head]:
    """Heads located at hyperref anchors: the first head-like line just below each anchor.

    The anchor only says *where* a result starts: its name carries hyperref's internal
    counter (a shared-counter lemma is `theorem.2.2`), so word and number come from the text.
    """
    by_page: dict[int, list[int]] = {}
    for index, read in enumerate(lines):
        by_page.setdefault(read.line.page, []).append(index)
    found: dict[int, Head] = {}
    for dest in destinations:
        if not is_result_destination(dest.name):
            continue
        on_page = by_page.get(dest.page, [])
        if dest.y is None:  # /Fit: only the page is known; take its next unclaimed head
            at = next((i for i in on_page if i not in found and _styled(lines[i])), None)
        else:
            at = _line_below(lines, on_page, dest)
        if at is None and dest.y is not None:
            # An anchor set just before a page or column break stays at the foot of the old
            # one while its head opens the next: look a few lines on in reading order.
            at = _head_after(lines, _last_line_above(lines, on_page, dest), dest)
        if at is not None and at not in found:
            m = match_head_text(lines[at].text, custom=True)
            # an anchor comes from \refstepcounter, so an anchored head is numbered; this also
            # keeps "Note that …" or a hand-made "Claim." near some other anchor out
            if m is not None and m.number is not None:
                found[at] = _head(lines, at, m, "named-destination", "high")
    return [found[i] for i in sorted(found)]


def _styled(read: ReadLine) -> bool:
    """A numbered head set as a head: its word is not in the upright body font, or its
    number is followed by head punctuation ("Lemma 3." / "Lemma 3 (Note)"). A sentence that
    starts with a cross-reference ("Lemma 3 shows …") is neither."""
    m = match_head_text(read.text, custom=True)
    if m is None or m.number is None:
        return False
    run = _run_at(read, m.word_at)
    return m.punct or m.note is not None or (run is not None and not is_upright_regular(run.font))


def _last_line_above(lines: Sequence[ReadLine], indices: list[int], dest: Destination) -> int:
    """Reading-order index of the last line above the anchor in the anchor's column."""
    if not indices:
        return -1
    x = dest.x if dest.x is not None else lines[indices[0]].line.x0
    column = min(indices, key=lambda i: abs(lines[i].line.x0 - x))
    above = [
        i
        for i in indices
        if lines[i].line.y0 >= (dest.y or 0.0) - 2.0 and lines[i].column == lines[column].column
    ]
    return max(above) if above else indices[0] - 1


def _head_after(lines: Sequence[ReadLine], index: int, dest: Destination) -> int | None:
    """The first numbered head among the next few lines (pieces of a display count too);
    failing that, among the first lines of the next page, past the footnotes and running
    foot that follow an anchor set at the foot of its page."""
    following = range(index + 1, min(index + 9, len(lines)))
    next_page = [i for i in range(index + 1, len(lines)) if lines[i].line.page > dest.page][:8]
    candidates: list[int] = [*following, *next_page]
    for at in candidates:
        m = match_head_text(lines[at].text)
        if m is not None and m.number is not None:
            return at
    return None


def _under(read: ReadLine, dest: Destination) -> bool:
    """Whether the line is in the anchor's column (hyperref puts x at the line's left)."""
    return dest.x is None or read.line.x0 - 30.0 <= dest.x <= read.line.x1


def _line_below(lines: Sequence[ReadLine], indices: list[int], dest: Destination) -> int | None:
    """The nearest numbered head-like line whose top lies within ~3 baselines below the
    anchor."""
    best: tuple[bool, float, int] | None = None
    for index in indices:
        distance = (dest.y or 0.0) - lines[index].line.y1
        near = -3.0 <= distance <= 40.0 and _under(lines[index], dest)
        m = match_head_text(lines[index].text, custom=True) if near else None
        if m is None or m.number is None:
            continue  # an anchor's head is numbered: "Note that …" below it is text
        # a styled head beats a nearer line that merely starts with a cross-reference
        rank = (not _styled(lines[index]), distance, index)
        if best is None or rank < best:
            best = rank
    return None if best is None else best[2]

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
# Hypothesis H1.", "Issue/TODO 18."), and the number any short token a paper prints in its
# place (`\\renewcommand\\theinnercustom{EB}`: "Assumption EB."): the anchor says a result
# starts there, the style says this is its head
_CUSTOM_NUMBER = rf"(?:{NUMBER}|[A-Z][A-Za-z0-9]{{1,4}}(?:\.\d+)*'?)"
_CUSTOM = re.compile(
    rf"^(?P<word>[A-Z][A-Za-z-]+(?:/[A-Za-z]+)?(?:\s+[A-Z][A-Za-z-]+){{0,2}})"
    rf"\s+(?P<number>{_CUSTOM_NUMBER})"
    rf"(?![\w-]){_TAIL}"
)
# the words of float captions and sectioning heads: "Algorithm 1: …", "Listing 2: …",
# "Appendix G. Proofs". A theorem-like environment of that name prints "Algorithm 3." with
# the period of a theorem head, so only that form is taken, and only for `algorithm`.
CAPTION_WORDS = frozenset(
    {"algorithm", "listing", "figure", "fig", "table", "tab", "appendix", "section"}
    | {"chapter", "part", "program", "code", "scheme", "box", "line", "page", "equation"}
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
    r"algorithm|algocf|algocfline|algoline|alc@.*|ALG@line|lstnumber|thmt@dummyctr|"
    r"enumi+v?|subfigure|subtable|proof|qed|toc.*|lof|lot|"
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
    font: str = ""  # the font of the head word


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
    unnumbered: _Match | None = None
    for pattern in (_HEAD, _SWAPPED, _CUSTOM) if custom else (_HEAD, _SWAPPED):
        m = pattern.match(stripped)
        if m and m.group("word")[0].isupper():
            has_number = m.group("number") is not None
            found = _Match(
                word=m.group("word"),
                number=m.group("number"),
                note=(m.group("note") or "").strip() or None,
                punct=m.group("punct") is not None,
                word_at=offset + m.start("word"),
                number_at=offset + m.start("number") if has_number else -1,
                end=offset + m.end(),
            )
            if has_number or not custom:
                return found
            # at an anchor a custom number may follow a known word: "Assumption EB."
            unnumbered = unnumbered or found
    return unnumbered


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
        if m is not None and m.number is None:
            m = _custom_number(read, m)
        if m is None or abs(size_at(read, m.word_at) - body_size) > _SIZE_SLACK:
            continue
        confidence = _font_confidence(read, m, skip)
        if confidence is not None:
            heads.append(_head(lines, index, m, "font-head", confidence))
    return heads


def _custom_number(read: ReadLine, m: _Match) -> _Match:
    """A head word followed by a number the paper made up ("Assumption EB.", from
    `\\renewcommand\\theinnercustom{EB}`), when it is set as a head and ends in head
    punctuation; else the unnumbered match."""
    custom = match_head_text(read.text, custom=True)
    if (
        custom is not None
        and custom.number is not None
        and custom.word == m.word
        and custom.punct
        and is_set_as_head(read, custom)
    ):
        return custom
    return m


def _font_confidence(read: ReadLine, m: _Match, skip: float) -> Confidence | None:
    if is_caption(read, m):
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
        font=font_at(lines[index], m.word_at),
    )


def is_caption(read: ReadLine, m: _Match) -> bool:
    """A float caption or a sectioning head ("Algorithm 1: …", "Listing 2: …", "Appendix G.
    Proofs", "Figure 3"): refused as a result head, except "Algorithm 3." in the form of a
    theorem head (`\\newtheorem{algorithm}{Algorithm}`)."""
    word = m.word.split()[-1].lower()
    if word not in CAPTION_WORDS:
        return False
    return word != "algorithm" or not read.text[: m.end].rstrip().endswith(".")


def is_set_as_head(read: ReadLine, m: _Match) -> bool:
    """Whether the match is printed as a head, not as the start of a sentence: its word is
    in a head font that the statement after it leaves ("Theorem 2.1." in bold, then the
    statement in italic), or it ends in head punctuation after a strong word or an upright
    number the statement does not share ("Theorem 4.2." with an italic word and an upright
    number, then an italic statement; "DEFINITION 7.4." in capitals). "Let X be …", "In
    Section 5 we …" and "Calculate ELBO L …" run on in the font they start in."""
    word_font = font_at(read, m.word_at)
    if not word_font or is_math(word_font) or is_caption(read, m):
        return False
    text = read.text
    after = len(text) - len(text[m.end :].lstrip())
    if after >= len(text.rstrip()):  # the head ends its line
        return m.punct or m.note is not None or not is_upright_regular(word_font)
    rest = text[after:]
    if m.note is None and rest.startswith("(") and rest.count("(") > rest.count(")"):
        return not is_upright_regular(word_font)  # a note that wraps onto the next line
    following = font_at(read, after)
    if is_math(following):
        return m.punct or not is_upright_regular(word_font)
    if following != word_font:
        return True
    number_font = font_at(read, m.number_at) if m.number_at >= 0 else ""
    upright_number = is_upright_regular(number_font) and number_font != following
    # small capitals faked in the body font: "DEFINITION 7.4." (imsart's Times)
    return m.punct and (is_strong(word_font) or upright_number or m.word.isupper())


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
        if is_result_destination(d.name) and _placeholder(d)
    )


def _placeholder(destination: Destination) -> bool:
    """pdfTeX's stand-in for a destination that was referenced but never set."""
    return destination.page == 1 and destination.x is None and destination.y is None


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
        if not is_result_destination(dest.name) or _placeholder(dest):
            continue  # a placeholder says an anchor was lost, not where (placeholder_anchors)
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
            # keeps "Note that …" or a hand-made "Claim." near some other anchor out; and it
            # is set as a head, so the first line of a statement ("Let X be …") is not one
            if m is not None and m.number is not None and is_set_as_head(lines[at], m):
                found[at] = _head(lines, at, m, "named-destination", "high")
    return [found[i] for i in sorted(found)]


def _styled(read: ReadLine) -> bool:
    """A numbered head set as a head (`is_set_as_head`). A sentence that starts with a
    cross-reference ("Lemma 3 shows …") or with capitals ("Let X be") is not."""
    m = match_head_text(read.text, custom=True)
    return m is not None and m.number is not None and is_set_as_head(read, m)


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
        if m is not None and m.number is not None and is_set_as_head(lines[at], m):
            return at
    return None


def _under(read: ReadLine, dest: Destination) -> bool:
    """Whether the line is in the anchor's column (hyperref puts x at the line's left)."""
    return dest.x is None or read.line.x0 - 30.0 <= dest.x <= read.line.x1


def _line_below(lines: Sequence[ReadLine], indices: list[int], dest: Destination) -> int | None:
    """The nearest numbered head-like line whose top lies within ~3 baselines below the
    anchor."""
    best: tuple[float, int] | None = None
    for index in indices:
        distance = (dest.y or 0.0) - lines[index].line.y1
        near = -3.0 <= distance <= 40.0 and _under(lines[index], dest)
        m = match_head_text(lines[index].text, custom=True) if near else None
        if m is None or m.number is None or not is_set_as_head(lines[index], m):
            continue  # an anchor's head is a numbered head: "Note that …" below it is text
        rank = (distance, index)
        if best is None or rank < best:
            best = rank
    return None if best is None else best[1]

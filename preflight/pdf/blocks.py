"""Where a statement and its proof end, from the lines that follow a head."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from paperlint.preflight.pdf.fonts import is_italic, is_math, is_strong
from paperlint.preflight.pdf.layout import ReadLine
from paperlint.preflight.pdf.text import join_lines

# the target may hold dots inside numbers: "Proof of Lemma 2.2."
PROOF = re.compile(r"^Proof(?:\s+of\s+(?P<target>(?:[^.:]|\.(?=\w)){1,80}))?\s*[.:]", re.I)
_QED = re.compile(r"(?:[\u220e\u25a1\u25a0\u25fb\u2610]|Q\.\s?E\.\s?D\.?|\bqed)\s*$", re.I)
_NUMBERED_TITLE = re.compile(r"^(?:\d+(?:\.\d+)*|[A-Z](?:\.\d+)*)\.?\s+[A-Z]")
# A statement is rarely longer than this many lines; beyond it the end was missed.
MAX_STATEMENT_LINES = 60
MAX_PROOF_LINES = 600
# A gap this much larger than the usual baseline skip is a \topsep or a paragraph space.
_BREAK_FACTOR = 1.2
# Display maths is centred: its lines start much further right than a paragraph indent.
_DISPLAY_INDENT = 25.0
_ITEM = re.compile(r"^(?:\(?(?:[ivx]+|[a-z]|\d+)[.)]|[•–-])\s")


@dataclass(frozen=True)
class Block:
    start: int  # index of the first line in reading order
    end: int  # index of the last line, inclusive
    text: str


def body_metrics(lines: Sequence[ReadLine]) -> tuple[float, float]:
    """The body font size (weighted by characters) and the usual baseline skip."""
    weights: dict[float, int] = {}
    for read in lines:
        for run in read.line.runs:
            if not is_math(run.font):
                key = round(run.size, 1)
                weights[key] = weights.get(key, 0) + len(run.text)
    size = max(weights, key=lambda k: weights[k]) if weights else 10.0
    gaps = sorted(
        r.gap_above for r in lines if r.gap_above and 0.8 * size < r.gap_above < 2.5 * size
    )
    # The lower quartile, not the median: in a short text the \topsep gaps around many small
    # results can outnumber the plain baseline skips between lines of a paragraph.
    return size, (gaps[len(gaps) // 4] if gaps else 1.2 * size)


def is_section_heading(read: ReadLine, body_size: float) -> bool:
    runs = [run for run in read.line.runs if run.text.strip()]
    if not runs or not is_strong(runs[0].font):
        return False
    larger = runs[0].size > body_size + 0.5
    return larger or bool(_NUMBERED_TITLE.match(read.text) and len(runs) == 1)


def is_proof_start(read: ReadLine) -> bool:
    """ "Proof." in an italic, bold or small-caps font; a regular "Proof of X relies…" is prose."""
    if not PROOF.match(read.text) or not read.line.runs:
        return False
    font = read.line.runs[0].font
    return is_italic(font) or is_strong(font)


def _starts_paragraph_after_break(read: ReadLine, previous: ReadLine, skip: float) -> bool:
    """Whether a \\topsep-sized gap above `read` ends the block.

    It does when the body font switches between italic and upright, when an indented
    paragraph follows, or when unindented text follows ordinary text (the gap after an
    environment). It does not when a display or a list item follows, or text after a display:
    those stay inside a theorem.
    """
    if read.gap_above is None or read.gap_above <= skip * _BREAK_FACTOR:
        return False
    if _ITEM.match(read.text):
        return False
    if _first_text_italic(read) != _first_text_italic(previous):
        return True
    if read.indent >= _DISPLAY_INDENT:
        return False
    return read.indent > 3.0 or previous.indent < _DISPLAY_INDENT


def _first_text_italic(read: ReadLine) -> bool:
    run = next((r for r in read.line.runs if r.text.strip() and not is_math(r.font)), None)
    return run is not None and is_italic(run.font)


def _block_end(
    lines: Sequence[ReadLine], start: int, stop: int, body_size: float, skip: float, limit: int
) -> int:
    end = start
    for index in range(start + 1, min(stop, start + limit)):
        read = lines[index]
        if is_proof_start(read) or is_section_heading(read, body_size):
            break
        same_column = read.column == lines[end].column and read.line.page == lines[end].line.page
        if same_column and _starts_paragraph_after_break(read, lines[end], skip):
            break
        end = index
        if _QED.search(read.text):
            break
    return end


def statement_block(
    lines: Sequence[ReadLine],
    head_index: int,
    rest: str,
    stop: int,
    body_size: float,
    skip: float,
) -> Block:
    """The statement: the rest of the head line and the lines up to the next boundary."""
    end = _block_end(lines, head_index, stop, body_size, skip, MAX_STATEMENT_LINES)
    texts = [rest, *(lines[i].text for i in range(head_index + 1, end + 1))]
    return Block(head_index, end, join_lines(texts))


def proof_block(
    lines: Sequence[ReadLine], start: int, stop: int, body_size: float, skip: float
) -> Block | None:
    """The proof starting at line `start`, up to ∎/□, a boundary or the next head."""
    if start >= stop or not is_proof_start(lines[start]):
        return None
    if _QED.search(lines[start].text):
        return Block(start, start, lines[start].text)
    end = _block_end(lines, start, stop, body_size, skip, MAX_PROOF_LINES)
    return Block(start, end, join_lines([lines[i].text for i in range(start, end + 1)]))

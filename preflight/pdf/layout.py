"""Reading order: columns, running heads and page numbers, line numbers within a page."""

from __future__ import annotations

import re
import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from paperlint.preflight.pdf.records import Line, Page
from paperlint.preflight.pdf.text import normalise

# Lines whose vertical centres are this close (points) belong to one visual row.
_ROW_TOLERANCE = 3.0
# Two results that open pages with the same words ("Lemma 11.4. If G = …", "Lemma 11.5. If
# G = …") look like a running head once digits are masked; a running head never starts so.
_HEAD_LIKE = re.compile(
    r"^\s*(?:\d[\d.]*\s+)?(?:theorem|lemma|proposition|corollary|claim|definition|assumption|"
    r"conjecture|remark|example|proof)\b",
    re.I,
)
_PAGE_NUMBER = re.compile(r"^(?:page\s*)?(?:\d+|[ivxlc]+)(?:\s*(?:of|/)\s*\d+)?$", re.I)


@dataclass(frozen=True)
class ReadLine:
    """A line in reading order with what the head and statement logic needs to know."""

    line: Line
    number: int  # 1-based line number within its page, furniture excluded
    text: str  # normalised
    gap_above: float | None  # baseline distance to the previous line in the column
    indent: float  # x0 minus the column's left edge
    column: int  # 0 full width or one column, 1 left, 2 right


def reading_order(pages: Sequence[Page]) -> list[ReadLine]:
    """Every text line of the document in reading order, furniture removed."""
    furniture = furniture_lines(pages)
    out: list[ReadLine] = []
    for page in pages:
        kept = [line for line in page.lines if id(line) not in furniture and line.text.strip()]
        out.extend(_read_page(page, kept))
    return out


def furniture_lines(pages: Sequence[Page]) -> set[int]:
    """Ids of running heads, footers and page numbers.

    A candidate is a line in the topmost or bottommost row of its page. It is furniture when
    it is a bare page number, or when its text pattern (digits masked) recurs at about the
    same height on at least two pages.
    """
    candidates: list[Line] = []
    for page in pages:
        candidates.extend(_edge_rows(page.lines))
    seen: dict[tuple[str, int], set[int]] = defaultdict(set)
    for line in candidates:
        seen[_pattern_key(line)].add(line.page)
    return {
        id(line)
        for line in candidates
        if _PAGE_NUMBER.match(line.text.strip())
        or (len(seen[_pattern_key(line)]) >= 2 and not _HEAD_LIKE.match(normalise(line.text)))
    }


def _edge_rows(lines: Sequence[Line]) -> Iterable[Line]:
    if not lines:
        return []
    top = max(line.y1 for line in lines)
    bottom = min(line.y0 for line in lines)
    return [
        line
        for line in lines
        if line.y1 >= top - _ROW_TOLERANCE or line.y0 <= bottom + _ROW_TOLERANCE
    ]


def _pattern_key(line: Line) -> tuple[str, int]:
    masked = re.sub(r"\d+", "#", normalise(line.text).strip().lower())
    return masked, round(line.y0 / 4)


def text_midline(lines: Sequence[Line]) -> float:
    """The centre of the text block, where a gutter would be (margins may be uneven)."""
    return (min(line.x0 for line in lines) + max(line.x1 for line in lines)) / 2


def find_gutter(lines: Sequence[Line]) -> float:
    """The x in the middle of the text block that the fewest lines cross.

    The block's centre is not enough: a display that overflows its column widens the block.
    """
    left = min(line.x0 for line in lines)
    width = max(line.x1 for line in lines) - left
    best = (len(lines) + 1, 0.0, text_midline(lines))
    for step in range(31):
        x = left + width * (0.3 + 0.4 * step / 30)
        crossing = sum(1 for line in lines if line.x0 < x < line.x1)
        candidate = (crossing, abs(x - left - width / 2), x)
        best = min(best, candidate)
    return best[2]


def is_two_column(page: Page, lines: Sequence[Line]) -> bool:
    """Two columns when several wide-ish lines sit wholly on each side of the gutter."""
    mid = find_gutter(lines)
    wide = (max(line.x1 for line in lines) - min(line.x0 for line in lines)) * 0.3
    left = sum(1 for line in lines if line.x1 <= mid + 1 and line.x1 - line.x0 >= wide)
    right = sum(1 for line in lines if line.x0 >= mid - 1 and line.x1 - line.x0 >= wide)
    return left >= 3 and right >= 3


def _read_page(page: Page, lines: list[Line]) -> list[ReadLine]:
    if not lines:
        return []
    if not is_two_column(page, lines):
        return _number(page, [(0, _rows(lines))])
    mid = find_gutter(lines)
    column = mid - min(line.x0 for line in lines)
    full = [line for line in lines if _is_full_width(line, mid, column)]
    full_ids = {id(line) for line in full}
    blocks: list[tuple[int, list[Line]]] = []
    # Full-width lines cut the page into bands; within a band, the left column precedes the
    # right one (boxes_flow interleaves them, docs/latex-notes.md §19.3).
    upper = float("inf")
    for cut in [*sorted(full, key=lambda ln: -ln.y1), None]:
        lower = cut.y1 if cut is not None else float("-inf")
        band = [ln for ln in lines if id(ln) not in full_ids and lower < _centre(ln) <= upper]
        blocks.append((1, _rows([ln for ln in band if _centre_x(ln) < mid])))
        blocks.append((2, _rows([ln for ln in band if _centre_x(ln) >= mid])))
        if cut is not None:
            blocks.append((0, [cut]))
            upper = cut.y0
    return _number(page, blocks)


def _is_full_width(line: Line, mid: float, column: float) -> bool:
    """A line reaching well into both columns spans the page (title, abstract, wide figure);
    a display centred in one column, or overflowing it, only pokes across the gutter."""
    return mid - line.x0 >= 0.4 * column and line.x1 - mid >= 0.4 * column


def _centre(line: Line) -> float:
    return (line.y0 + line.y1) / 2


def _centre_x(line: Line) -> float:
    return (line.x0 + line.x1) / 2


def _rows(lines: list[Line]) -> list[Line]:
    """Top to bottom; pieces of one visual row (an equation and its number) left to right."""
    ordered = sorted(lines, key=lambda ln: -_centre(ln))
    rows: list[list[Line]] = []
    for line in ordered:
        if rows and abs(_centre(rows[-1][0]) - _centre(line)) <= _ROW_TOLERANCE:
            rows[-1].append(line)
        else:
            rows.append([line])
    return [line for row in rows for line in sorted(row, key=lambda ln: ln.x0)]


def _number(page: Page, blocks: list[tuple[int, list[Line]]]) -> list[ReadLine]:
    out: list[ReadLine] = []
    for column, block in blocks:
        if not block:
            continue
        left = statistics.median_low(sorted(ln.x0 for ln in block)[: max(1, len(block) // 4)])
        previous: Line | None = None
        for line in block:
            gap = None if previous is None else previous.y0 - line.y0
            out.append(
                ReadLine(line, len(out) + 1, normalise(line.text), gap, line.x0 - left, column)
            )
            previous = line
    return out

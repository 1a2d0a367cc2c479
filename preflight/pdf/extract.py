"""The pdfminer edge: a PDF file becomes a `PdfDocument` of plain line records.

pdfminer is imported inside the functions so `paperlint --help` never pays for it. Every
pdfminer failure is turned into an `InputError` here; nothing downstream sees pdfminer.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

from paperlint.errors import InputError
from paperlint.preflight.pdf.records import Destination, Line, Page, PdfDocument, Run

# A gap this wide (points) inside one pdfminer line that contains the page midline is the
# gutter of a two-column page: pdfminer's char_margin can glue both columns into one line.
_GUTTER_GAP = 6.0
# Malformed files raise plain Python errors from deep inside pdfminer's parser, not only its
# own exception classes; all of them mean "this file cannot be read", never a crash.
_BROKEN = (ValueError, KeyError, TypeError, IndexError, AttributeError, EOFError, OSError)


def read_pdf(path: Path) -> PdfDocument:
    """Read the text lines and named destinations of the PDF at `path`."""
    from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect
    from pdfminer.psexceptions import PSException

    _check_header(path)
    try:
        with path.open("rb") as handle:
            return _read_open_pdf(handle, path.name)
    except (PDFPasswordIncorrect, PDFEncryptionError) as exc:
        raise InputError(
            f"encrypted PDF cannot be opened ({exc.__class__.__name__})",
            path=path,
            hint="decrypt it first, e.g. `qpdf --decrypt in.pdf out.pdf`, or use the TeX source",
        ) from exc
    except (PSException, *_BROKEN) as exc:
        raise InputError(
            f"broken PDF: {exc.__class__.__name__}: {exc}",
            path=path,
            hint="re-export the PDF or preflight the TeX source instead",
        ) from exc


def _check_header(path: Path) -> None:
    try:
        head = path.read_bytes()[:1024]
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror}", path=path) from exc
    if b"%PDF-" not in head:
        raise InputError(
            "not a PDF file (no %PDF- header)",
            path=path,
            hint="pass a PDF or the paper's main .tex file",
        )


def _read_open_pdf(handle: Any, name: str) -> PdfDocument:
    from pdfminer.converter import PDFPageAggregator
    from pdfminer.layout import LAParams
    from pdfminer.pdfdocument import PDFDocument
    from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager
    from pdfminer.pdfpage import PDFPage
    from pdfminer.pdfparser import PDFParser

    document = PDFDocument(PDFParser(handle))
    resources = PDFResourceManager()
    device = PDFPageAggregator(resources, laparams=LAParams())
    interpreter = PDFPageInterpreter(resources, device)
    pages: list[Page] = []
    page_index: dict[int, int] = {}
    for number, pdf_page in enumerate(PDFPage.create_pages(document), start=1):
        page_index[cast(int, pdf_page.pageid)] = number
        interpreter.process_page(pdf_page)
        pages.append(_page_record(device.get_result(), number))
    return PdfDocument(name, tuple(pages), tuple(_destinations(document, page_index)))


def _page_record(layout: Any, number: int) -> Page:
    from pdfminer.layout import LTTextContainer, LTTextLine

    x0, y0, x1, y1 = layout.bbox
    text_lines = [
        text_line
        for box in layout
        if isinstance(box, LTTextContainer)
        for text_line in box
        if isinstance(text_line, LTTextLine)
    ]
    # The gutter is centred on the text block, which need not be centred on the page.
    left = min((line.x0 for line in text_lines), default=x0)
    right = max((line.x1 for line in text_lines), default=x1)
    lines: list[Line] = []
    for text_line in text_lines:
        lines.extend(_line_records(text_line, number, (left + right) / 2))
    return Page(number, x1 - x0, y1 - y0, tuple(lines))


def _line_records(text_line: Any, page: int, midline: float) -> Iterator[Line]:
    """Group the line's characters into font runs, splitting at a gutter-wide gap."""
    from pdfminer.layout import LTChar

    segments: list[list[Any]] = [[]]
    previous: Any = None
    for item in text_line:
        if isinstance(item, LTChar):
            if previous is not None and _is_gutter(previous.x1, item.x0, midline):
                segments.append([])
            previous = item
        segments[-1].append(item)
    for segment in segments:
        chars = [item for item in segment if isinstance(item, LTChar)]
        if chars:
            yield Line(
                page,
                min(c.x0 for c in chars),
                min(c.y0 for c in chars),
                max(c.x1 for c in chars),
                max(c.y1 for c in chars),
                _runs(segment),
            )


def _is_gutter(left: float, right: float, midline: float) -> bool:
    return right - left >= _GUTTER_GAP and left - 8 <= midline <= right + 8


# pdftex sets T1-encoded text without cm-super in bitmap Type 3 fonts (pdfminer names them
# "unknown") that carry no ToUnicode map: their ligatures, dashes and quotes come out as
# `(cid:N)`, so "Definition" reads "De(cid:28)nition". These are the T1 (Cork) slots.
_T1_SLOTS = {
    16: "\u201c",
    17: "\u201d",
    21: "\u2013",
    22: "\u2014",
    27: "ff",
    28: "fi",
    29: "fl",
    30: "ffi",
    31: "ffl",
}
_CID_TEXT = re.compile(r"\(cid:(\d+)\)")
_T1_FONT = re.compile(r"^(unknown|sf[a-z]{2}\d|ec[a-z]{2}\d)", re.I)


def _char_text(text: str, font: str) -> str:
    """A glyph's text, with the T1 slots of an unmapped T1 font repaired."""
    m = _CID_TEXT.fullmatch(text)
    if m is not None and _T1_FONT.match(font):
        return _T1_SLOTS.get(int(m.group(1)), text)
    return text


def _runs(items: list[Any]) -> tuple[Run, ...]:
    from pdfminer.layout import LTChar

    runs: list[Run] = []
    for item in items:
        text = item.get_text()
        if isinstance(item, LTChar):
            text = _char_text(text, str(item.fontname).split("+", 1)[-1])
        if not isinstance(item, LTChar):
            # LTAnno: a virtual space or newline with no font; it joins the run before it.
            if runs and text != "\n":
                runs[-1] = Run(runs[-1].text + text, runs[-1].font, runs[-1].size)
            continue
        font = str(item.fontname).split("+", 1)[-1]
        if runs and runs[-1].font == font and abs(runs[-1].size - item.size) < 0.05:
            runs[-1] = Run(runs[-1].text + text, font, runs[-1].size)
        else:
            runs.append(Run(text, font, float(item.size)))
    return tuple(runs)


def _destinations(document: Any, page_index: dict[int, int]) -> Iterator[Destination]:
    """Named destinations from the `/Names /Dests` name tree or an old-style `/Dests` dict."""
    from pdfminer.pdftypes import resolve1

    catalog = document.catalog
    names = resolve1(catalog.get("Names")) or {}
    if isinstance(names, dict) and "Dests" in names:
        entries: Iterator[tuple[Any, Any]] = _walk_name_tree(names["Dests"], depth=0)
    else:
        old = resolve1(catalog.get("Dests")) or {}
        entries = iter(old.items()) if isinstance(old, dict) else iter(())
    for key, value in entries:
        destination = _destination(key, value, page_index)
        if destination is not None:
            yield destination


def _walk_name_tree(node: Any, depth: int) -> Iterator[tuple[Any, Any]]:
    from pdfminer.pdftypes import resolve1

    node = resolve1(node)
    if not isinstance(node, dict) or depth > 32:  # a cyclic tree must not hang the run
        return
    pairs = resolve1(node.get("Names")) or []
    for index in range(0, len(pairs) - 1, 2):
        yield resolve1(pairs[index]), pairs[index + 1]
    for kid in resolve1(node.get("Kids")) or []:
        yield from _walk_name_tree(kid, depth + 1)


def _destination(key: Any, value: Any, page_index: dict[int, int]) -> Destination | None:
    from pdfminer.pdftypes import resolve1

    name = key.decode("latin-1") if isinstance(key, bytes) else str(key)
    value = resolve1(value)
    if isinstance(value, dict):
        value = resolve1(value.get("D"))
    if not isinstance(value, list) or not value:
        return None
    page = page_index.get(getattr(value[0], "objid", -1))
    if page is None:
        return None
    left, top = _position(value)
    return Destination(name, page, top, left)


def _position(value: list[Any]) -> tuple[float | None, float | None]:
    """(left, top) of an explicit destination by its type (PDF 32000 §12.3.2.2):
    `[p /XYZ left top zoom]`, `[p /FitH top]`, `[p /FitBH top]`, `[p /FitV left]`,
    `[p /FitR left bottom right top]`; `/Fit` and `/FitB` carry no position."""
    from pdfminer.pdftypes import resolve1

    kind = str(getattr(resolve1(value[1]), "name", resolve1(value[1]))) if len(value) > 1 else ""
    kind = kind.lstrip("/")
    numbers = [_number(resolve1(v)) for v in value[2:]]
    numbers += [None] * (4 - len(numbers))
    if kind in ("FitH", "FitBH"):
        return None, numbers[0]
    if kind in ("FitV", "FitBV"):
        return numbers[0], None
    if kind == "FitR":
        return numbers[0], numbers[3]
    if kind in ("Fit", "FitB"):
        return None, None
    return numbers[0], numbers[1]  # XYZ, and anything unknown read the same way


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) else None

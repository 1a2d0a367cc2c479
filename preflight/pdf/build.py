"""Assemble the inventory of a PDF: heads → results with statements, proofs, uses, citations."""

from __future__ import annotations

import difflib
import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from paperlint.errors import InputError
from paperlint.preflight.model import (
    BibEntry,
    Diagnostic,
    FileEntry,
    Inventory,
    Proof,
    Result,
    Span,
)
from paperlint.preflight.pdf.blocks import (
    PROOF,
    Block,
    body_metrics,
    is_proof_start,
    is_section_heading,
    proof_block,
    statement_block,
)
from paperlint.preflight.pdf.citations import (
    find_bibliography_start,
    find_citations,
    parse_bibliography,
)
from paperlint.preflight.pdf.heads import (
    KINDS,
    NUMBER,
    Head,
    find_destination_heads,
    find_font_heads,
    is_result_destination,
    kind_of,
    placeholder_anchors,
)
from paperlint.preflight.pdf.layout import ReadLine, reading_order
from paperlint.preflight.pdf.records import PdfDocument
from paperlint.preflight.pdf.text import count_cids

_ABBREVIATIONS = {
    "thm": "theorem",
    "lem": "lemma",
    "prop": "proposition",
    "cor": "corollary",
    "def": "definition",
    "defn": "definition",
    "ass": "assumption",
}
_REF_WORD = "(?i:" + "|".join([*KINDS, *_ABBREVIATIONS]) + ")"
_REFERENCE = re.compile(
    rf"\b(?P<word>{_REF_WORD})s?\.?\s+(?P<numbers>{NUMBER}(?:\s*(?:,|and|&|or)\s*{NUMBER})*)(?!\w)",
)
_NUMBER_ONLY = re.compile(NUMBER)
_NO_TEXT = "no text layer (scanned?): the PDF has no extractable text, run OCR first"
_OCR_HINT = "e.g. `ocrmypdf in.pdf out.pdf`, then preflight the OCR'd PDF or the TeX source"


def build_pdf_inventory(path: Path) -> Inventory:
    """The inventory of the PDF at `path`; raises `InputError` for unreadable input."""
    from paperlint.preflight.pdf.extract import read_pdf

    document = read_pdf(path)
    if not any(line.text.strip() for page in document.pages for line in page.lines):
        raise InputError(_NO_TEXT, path=path, hint=_OCR_HINT)
    return inventory_from_document(document, sha256=hashlib.sha256(path.read_bytes()).hexdigest())


def inventory_from_document(document: PdfDocument, *, sha256: str = "") -> Inventory:
    """Pure part of `build_pdf_inventory`, over already extracted page records."""
    lines = reading_order(document.pages)
    if not any(read.text.strip() for read in lines):
        raise InputError(_NO_TEXT, path=document.name, hint=_OCR_HINT)
    body_size, skip = body_metrics(lines)
    heads, ignored, has_anchors = _merge_heads(document, lines, body_size, skip)
    # appendices often follow the references, under a heading we may not recognise: the
    # references end at the next section heading or result head, whichever comes first
    bib_start, bib_end = _bibliography_region(lines, body_size, [h.index for h in heads])
    bib = parse_bibliography(lines[bib_start + 1 : bib_end])
    drafts = [
        _draft(
            lines,
            heads,
            i,
            bib_start if heads[i].index < bib_start else len(lines),
            body_size,
            skip,
        )
        for i in range(len(heads))
    ]
    drafts = _attach_detached_proofs(lines, drafts, heads, body_size, skip)
    results = _results(document.name, lines, drafts, bib)
    diagnostics = _diagnostics(document.name, lines, drafts, results, has_anchors)
    diagnostics += [_ignored(document.name, lines, head) for head in ignored]
    return Inventory(
        root=document.name,
        files=[FileEntry(path=document.name, sha256=sha256)],
        results=results,
        bibliography=bib,
        diagnostics=diagnostics,
        source_kind="pdf",
    )


def _merge_heads(
    document: PdfDocument, lines: Sequence[ReadLine], body_size: float, skip: float
) -> tuple[list[Head], list[Head], bool]:
    """Anchored heads win. hyperref anchors every numbered result (§19.2), so in an anchored
    PDF a numbered font head without an anchor needs another reason to be a result:

    - it repeats the kind and number of an anchored head: a restatement (`{\\bf Lemma
      \\ref{x}}.`, a section titled "Theorem 3"), kept and attached to that result;
    - its word is set exactly as anchored heads of that word are (same font) and its number
      is new: pdfTeX dropped its anchor as a duplicate destination (numbers reset by
      `\\counterwithin` after `\\appendix`), or a float moved the head away from it;
    - pdfTeX replaced its anchor by a fixed one (`placeholder_anchors`).

    Anything else (a hand-made "{\\bf Claim I.}") is ignored and reported. An unnumbered
    font head (a starred environment has no anchor) is kept with low confidence."""
    anchored = find_destination_heads(lines, document.destinations)
    has_anchors = any(is_result_destination(d.name) for d in document.destinations)
    by_index = {head.index: head for head in anchored}
    numbered = {(head.kind, head.number) for head in anchored}
    fonts: dict[str, set[str]] = {}
    for head in anchored:
        fonts.setdefault(head.word.split()[-1].lower(), set()).add(head.font)
    vouched = placeholder_anchors(document.destinations)
    ignored: list[Head] = []
    for head in find_font_heads(lines, body_size, skip):
        if head.index in by_index:
            continue
        env = head.word.lower()
        if has_anchors and head.number is not None:
            restated = (head.kind, head.number) in numbered
            alike = head.font in fonts.get(env.split()[-1], set())
            if restated or alike or vouched[env] > 0:
                if not restated and not alike:
                    vouched[env] -= 1
                by_index[head.index] = replace(head, confidence="medium")
                numbered.add((head.kind, head.number))
                continue
            ignored.append(head)  # a hand-made "{\\bf Claim I.}": LaTeX printed no head
            continue
        if has_anchors:
            head = replace(head, confidence="low")
        by_index[head.index] = head
    return [by_index[i] for i in sorted(by_index)], ignored, has_anchors


def _bibliography_region(
    lines: Sequence[ReadLine], body_size: float, heads: list[int]
) -> tuple[int, int]:
    """[start, end) of the references: from their heading to the next section heading."""
    start = find_bibliography_start(lines)
    if start is None:
        return len(lines), len(lines)
    end = next(
        (i for i in range(start + 1, len(lines)) if is_section_heading(lines[i], body_size)),
        len(lines),
    )
    return start, min([end, *(i for i in heads if i > start)])


@dataclass(frozen=True)
class _Draft:
    head: Head
    statement: Block
    proof: Block | None


def _draft(
    lines: Sequence[ReadLine], heads: list[Head], i: int, stop: int, size: float, skip: float
) -> _Draft:
    head = heads[i]
    next_head = min(heads[i + 1].index, stop) if i + 1 < len(heads) else stop
    last_head_line = head.index + head.lines - 1  # a wrapped note ends the head one line on
    statement = statement_block(lines, last_head_line, head.rest, next_head, size, skip)
    statement = replace(statement, start=head.index)
    proof = proof_block(lines, statement.end + 1, next_head, size, skip)
    return _Draft(head, statement, proof)


def _attach_detached_proofs(
    lines: Sequence[ReadLine], drafts: list[_Draft], heads: list[Head], size: float, skip: float
) -> list[_Draft]:
    """A "Proof of Lemma 2.2." set apart from its lemma (in an appendix, say) goes to the
    lemma when the lemma has no proof yet; the first such proof wins."""
    taken = {i for d in drafts if d.proof for i in range(d.proof.start, d.proof.end + 1)}
    starts = [h.index for h in heads]
    out = list(drafts)
    for at, read in enumerate(lines):
        m = PROOF.match(read.text)
        if at in taken or m is None or not m.group("target") or not is_proof_start(read):
            continue
        target = _REFERENCE.search(m.group("target"))
        if target is None:
            continue
        word = target.group("word").lower()
        kind = kind_of(_ABBREVIATIONS.get(word, word))
        number = _NUMBER_ONLY.findall(target.group("numbers"))[0]
        owner = next(
            (i for i, d in enumerate(out) if (d.head.kind, d.head.number) == (kind, number)),
            None,
        )
        if owner is None or out[owner].proof is not None:
            continue
        stop = next((s for s in starts if s > at), len(lines))
        out[owner] = replace(out[owner], proof=proof_block(lines, at, stop, size, skip))
    return out


def _results(
    name: str, lines: Sequence[ReadLine], drafts: list[_Draft], bib: list[BibEntry]
) -> list[Result]:
    first = _owners(drafts)
    ids = _assign_ids(drafts, set(first.values()))
    index = {key: ids[i] for key, i in first.items()}
    results = []
    for i, draft in enumerate(drafts):
        head = draft.head
        proof_text = draft.proof.text if draft.proof else ""
        key = (head.kind, head.number or "")
        owner = index.get(key)
        if owner and owner != ids[i] and not _restates(drafts[first[key]], draft):
            owner = None  # the same number printed twice (KOMA's \\addsec restarts a counter)
        citations = [
            *find_citations(head.note or "", bib, "note"),
            *find_citations(draft.statement.text, bib, "statement"),
            *find_citations(proof_text, bib, "proof"),
        ]
        results.append(
            Result(
                id=ids[i],
                env=head.word.lower(),
                kind=head.kind,
                title=head.word,
                number=head.number,
                note=head.note,
                statement=draft.statement.text,
                span=_span(name, lines, draft.statement),
                proof=_proof(name, lines, draft.proof),
                uses=_uses(draft.statement.text, index, ids[i]),
                proof_uses=_uses(proof_text, index, ids[i]),
                citations=citations,
                number_source="pdf",
                restates=owner if owner and owner != ids[i] else None,
            )
        )
    return results


def _restates(original: _Draft, again: _Draft) -> bool:
    """Whether a head that repeats an earlier kind and number restates it. It does when the
    original is anchored and it is not (a hand-bolded `{\\bf Lemma \\ref{x}}.`, a heading
    titled "Theorem 3.2": hyperref anchors every head LaTeX numbers), when it stands alone
    on its line as such a heading does, or when it prints the original's statement again;
    otherwise the same number printed twice is another result."""
    anchored = original.head.method == "named-destination"
    if anchored != (again.head.method == "named-destination") or not again.head.rest:
        return True
    a = " ".join(original.statement.text.split())[:300]
    b = " ".join(again.statement.text.split())[:300]
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio() >= 0.9


def _owners(drafts: list[_Draft]) -> dict[tuple[str, str], int]:
    """Per printed kind and number, the draft that owns it: the first anchored one, else the
    first one; another draft with that number restates it."""
    owners: dict[tuple[str, str], int] = {}
    for i, draft in enumerate(drafts):
        head = draft.head
        if not head.number:
            continue
        key = (head.kind, head.number)
        known = owners.get(key)
        if known is None or (drafts[known].head.method != "named-destination" == head.method):
            owners[key] = i
    return owners


def _assign_ids(drafts: list[_Draft], owners: set[int]) -> list[str]:
    """`<kind>:<number>` for the draft that owns its number; a restatement or an unnumbered
    head gets `<kind>@<8 hex of its statement>`."""
    ids: list[str] = []
    for i, draft in enumerate(drafts):
        head = draft.head
        candidate = f"{head.kind}:{head.number}" if head.number and i in owners else ""
        if not candidate or candidate in ids:
            digest = hashlib.sha256(" ".join(draft.statement.text.split()).encode()).hexdigest()
            candidate = f"{head.kind}@{digest[:8]}"
            while candidate in ids:
                candidate += "'"
        ids.append(candidate)
    return ids


def _uses(text: str, index: dict[tuple[str, str], str], own: str) -> list[str]:
    found: list[str] = []
    for m in _REFERENCE.finditer(text):
        word = m.group("word").lower()
        kind = kind_of(_ABBREVIATIONS.get(word, word))
        for number in _NUMBER_ONLY.findall(m.group("numbers")):
            target = index.get((kind, number)) or _by_number(index, number)
            if target and target != own and target not in found:
                found.append(target)
    return found


def _by_number(index: dict[tuple[str, str], str], number: str) -> str | None:
    """A shared counter makes "Lemma 2.2" unique by number even if the kind is misread."""
    matches = [rid for (_, num), rid in index.items() if num == number]
    return matches[0] if len(matches) == 1 else None


def _span(name: str, lines: Sequence[ReadLine], block: Block) -> Span:
    """Page and line of the first line; `end_line` keeps counting across page breaks so
    that it never falls below `start_line`."""
    first, last = lines[block.start], lines[block.end]
    end = last.number
    for index in range(block.start, block.end):
        if lines[index + 1].line.page != lines[index].line.page:
            end += lines[index].number
    return Span(
        file=name, start_line=first.number, end_line=max(end, first.number), page=first.line.page
    )


def _proof(name: str, lines: Sequence[ReadLine], block: Block | None) -> Proof | None:
    if block is None:
        return None
    return Proof(span=_span(name, lines, block), text=block.text, attached_by="pdf")


def _ignored(name: str, lines: Sequence[ReadLine], head: Head) -> Diagnostic:
    read = lines[head.index]
    return Diagnostic(
        severity="info",
        file=name,
        line=read.number,
        code="pdf-extraction",
        message=f"'{head.word} {head.number}' on page {read.line.page} looks like a head but "
        "has no hyperref anchor, unlike the other results: taken as a hand-made heading",
    )


def _diagnostics(
    name: str,
    lines: Sequence[ReadLine],
    drafts: list[_Draft],
    results: list[Result],
    has_anchors: bool,
) -> list[Diagnostic]:
    out = []
    for draft, result in zip(drafts, results, strict=True):
        page = lines[draft.head.index].line.page
        out.append(
            Diagnostic(
                severity="info",
                file=name,
                line=result.span.start_line,
                code="pdf-extraction",
                message=f"{result.id} (page {page}): found by {draft.head.method}, "
                f"confidence {draft.head.confidence}",
            )
        )
    cids = sum(count_cids(read.text) for read in lines)
    if cids:
        out.append(
            Diagnostic(
                severity="warning",
                file=name,
                code="pdf-cid-glyphs",
                message=f"{cids} glyph(s) came out as (cid:N) (fonts without a ToUnicode map, "
                "mostly math): statement text is approximate; prefer the TeX source",
            )
        )
    if not has_anchors:
        out.append(
            Diagnostic(
                severity="info",
                file=name,
                code="pdf-extraction",
                message="no hyperref named destinations: heads were found from fonts only",
            )
        )
    return out

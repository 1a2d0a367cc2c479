"""Plain-TeX and AMS-TeX papers: `\\proclaim` heads and `\\demo`/`\\proof` proofs.

Plain TeX writes `\\proclaim Theorem 1.2. The statement.\\par` (the head ends at the first
period followed by a space; the statement at the paragraph's end); AMS-TeX writes
`\\proclaim{Theorem 1.2} ... \\endproclaim` and proofs as `\\demo{Proof} ... \\enddemo` or
`\\proof ... \\endproof`. The numbers are the author's own (plain TeX has no counters), so
they are taken as written. These handlers act only in a paper without `\\documentclass`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from paperlint.preflight import lazyre, plaintext, texscan
from paperlint.preflight.walkstate import Owner, RawProof, RawResult

if TYPE_CHECKING:
    from paperlint.preflight.numbering import Walker

_HEAD = lazyre.pattern(
    r"\s*(?P<title>[A-Z][A-Za-z]*(?:\s+[A-Z][a-z]+)*)\s*(?P<number>[A-Z]?[\d.]*\d[a-z]?)?"
)
_PLAIN_HEAD = lazyre.pattern(r"\s*([^\n]{1,120}?)\.(?=\s)")
_PAR_END = lazyre.pattern(r"\\par(?![A-Za-z@])|\n[ \t]*\n|\\proclaim(?![A-Za-z@])")
_ENDERS = {"proclaim": "endproclaim", "demo": "enddemo", "proof": "endproof", "pf": "endpf"}


def proclaim(walker: Walker, text: str, m: re.Match[str]) -> int:
    if not walker.plain:
        return m.end()
    pos = texscan.skip_spaces(text, m.end())
    if text.startswith("{", pos):  # AMS-TeX
        group = texscan.read_group(text, pos)
        assert group is not None
        head, body_start = group
        close = _find(text, "endproclaim", body_start)
        body_end, end = close if close else _paragraph_end(text, body_start)
    else:
        match = _PLAIN_HEAD.match(text, pos)
        if match is None:
            return m.end()
        head, body_start = match.group(1), match.end()
        body_end, end = _paragraph_end(text, body_start)
    title, number, note = _split_head(head)
    result = RawResult(
        env=title.lower().replace(" ", ""),
        title=title,
        number=number,
        note=note,
        begin=walker.at(m.start()),
        body_start=walker.at(body_start, body=True),
        end=walker.at(end),
        body_end=walker.at(body_end),
    )
    walker.out.results.append(result)
    walker.current = Owner(number or "", "result", len(walker.out.results) - 1)
    return body_start


def demo(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\demo{Proof of Theorem 2} ... \\enddemo`, `\\proof ... \\endproof`, `\\pf ... \\endpf`."""
    if not walker.plain:
        return m.end()
    word = m.group(1)
    pos, note = m.end(), None
    if word == "demo":
        group = texscan.read_group(text, pos)
        if group is not None:
            note, pos = group
    close = _find(text, _ENDERS[word], pos)
    body_end, end = close if close else _paragraph_end(text, pos)
    proof = RawProof(
        env=word,
        note=note,
        begin=walker.at(m.start()),
        body_start=walker.at(pos, body=True),
        end=walker.at(end),
        body_end=walker.at(body_end),
    )
    walker.out.proofs.append(proof)
    return pos


def _find(text: str, word: str, pos: int) -> tuple[int, int] | None:
    match = re.compile(rf"\\{word}(?![A-Za-z@])").search(text, pos)
    return (match.start(), match.end()) if match else None


def _paragraph_end(text: str, pos: int) -> tuple[int, int]:
    match = _PAR_END.search(text, pos)
    if match is None:
        return len(text), len(text)
    if match.group(0).startswith("\\proclaim"):
        return match.start(), match.start()
    return match.start(), match.end()


def _split_head(head: str) -> tuple[str, str | None, str | None]:
    """`Theorem 1.2 (Hahn)` → ("Theorem", "1.2", "Hahn"); font switches are dropped."""
    clean = plaintext.latex_to_text(head)
    note_match = re.search(r"\(([^()]*)\)\s*\.?\s*$", clean)
    note = note_match.group(1).strip() if note_match else None
    clean = clean[: note_match.start()] if note_match else clean
    match = _HEAD.match(clean)
    if match is None:
        return clean.strip() or "Proclaim", None, note
    return match.group("title").strip(), match.group("number"), note

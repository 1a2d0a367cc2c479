"""Attach proofs to results: the proof environment that follows, "Proof of \\ref{x}" notes
anywhere, and "Proof." paragraphs written without an environment (docs/latex-notes.md §13)."""

from __future__ import annotations

import bisect
import re

from paperlint.preflight import lazyre, references
from paperlint.preflight.draft import DraftProof, DraftResult, DraftSpan
from paperlint.preflight.sourcetree import FlatSource
from paperlint.preflight.walkstate import Problem, RawProof, WalkOutput

_GAP_LIMIT = 4000
_HEADING_WINDOW = 400
_PROVES = lazyre.pattern(r"\\proves\s*\{([^}]*)\}")
_SECTIONING = lazyre.pattern(r"\\(?:part|chapter|section|subsection)\*?\s*[\[{]")
_PARAGRAPH_HEAD = lazyre.pattern(
    r"\s*(?:\\noindent\s*)?(?:\\(?:par|medskip|smallskip|bigskip)\s*)*"
    r"(?:\{\\(?:it|bf|em|sc)\s*Proof[^}]{0,200}\}|\\(?:textit|textbf|emph|textsc)\s*\{\s*Proof[^}]{0,200}\}"
    r"|Proof[.:])"
)
_PROOF_END = lazyre.pattern(
    r"\\(?:qed|qedhere|square|blacksquare|Box|QED|hfill\s*\$?\\(?:Box|square|blacksquare))\b|\\end\s*\{|\\begin\s*\{|\n\s*\n\s*\n"
)
# `[Pp]` outside the case-insensitive group: a pattern that starts with a cased letter under
# `re.I` gives the regex engine nothing to skip ahead by, and every position of the text is
# tried (cpt-rl: 1.0 -> 0.6 ms a search of the whole text); the same matches.
_PROOF_OF = lazyre.pattern(r"[Pp](?i:roof\s+of\s+(?:the\s+)?)")


def attach(flat: FlatSource, walk: WalkOutput, results: list[DraftResult]) -> dict[int, int]:
    """Set `Result.proof`; return proof index → result index."""
    owners: dict[int, int] = {}
    ends = _ends_index(walk)
    key_owner = {k: o.result for k, o in walk.labels.items() if o.result is not None}
    by_number = {(r.title.lower(), r.number): i for i, r in enumerate(results) if r.number}
    by_number.update({(r.kind, r.number): i for i, r in enumerate(results) if r.number})
    wrappers = references.ref_macros(walk)
    for index, proof in enumerate(walk.proofs):
        note = references.normalise(proof.note or "", wrappers)
        how = "proves"
        target = _proved(flat, proof, key_owner)
        if target is None:
            how = "reference"
            target = _by_reference(note, key_owner, by_number)
        if target is None:
            heading = _heading_before(flat, proof, ends[0])
            target = _by_reference(heading, key_owner, by_number)
        if target is None and not _names_another(note):
            target, how = _preceding(flat, walk, proof, ends), "next"
        if target is not None and walk.results[target].restates is not None:
            target = walk.results[target].restates  # a proof after `\\mythm*` proves the original
        if target is None or results[target].proof is not None:
            continue
        owners[index] = target
        attached = _proof(flat, proof, how)
        attached.leanok = proof.leanok
        results[target].proof = attached
    _attach_paragraphs(flat, walk, results)
    _attach_proof_of_paragraphs(flat, walk, results, key_owner, by_number)
    return owners


def _names_another(note: str) -> bool:
    """`\\begin{proof}[Proof of Theorem~1]` where Theorem 1 is not a result of this file (a
    companion paper's): the proof says whose it is, so it is no one's by position."""
    return _PROOF_OF.search(note) is not None and bool(
        references.reference_keys(note) or references.plain_mentions(note)
    )


def _proved(flat: FlatSource, proof: RawProof, key_owner: dict[str, int]) -> int | None:
    """leanblueprint's `\\proves{key}` inside the proof names what it proves."""
    end = proof.body_end if proof.body_end >= 0 else proof.body_start + 2000
    found = _PROVES.search(flat.text, proof.body_start, end)
    return key_owner.get(found.group(1).strip()) if found else None


def _heading_before(flat: FlatSource, proof: RawProof, ends: list[int]) -> str:
    """A "Proof of Theorem~\\ref{x}" heading (a section title or a paragraph) just before
    the proof environment, with no result in between."""
    start = max(0, proof.begin - _HEADING_WINDOW)
    window = flat.text[start : proof.begin]
    count = bisect.bisect_right(ends, proof.begin)
    if count and ends[count - 1] >= start:
        window = flat.text[ends[count - 1] : proof.begin]
    matches = list(_PROOF_OF.finditer(window))
    return window[matches[-1].end() : matches[-1].end() + 200] if matches else ""


def _by_reference(
    note: str, key_owner: dict[str, int], by_number: dict[tuple[str, str], int]
) -> int | None:
    # `\\begin{proofof}{thm:x}` names its result by the bare label
    for key in [note.strip(), *references.reference_keys(note)]:
        if key in key_owner:
            return key_owner[key]
    for word, number in references.plain_mentions(note):
        if (word, number) in by_number:
            return by_number[(word, number)]
    return None


def _ends_index(walk: WalkOutput) -> tuple[list[int], list[int]]:
    """Result ends in order, with the latest result (document order) ending by each end."""
    pairs = sorted((raw.end, i) for i, raw in enumerate(walk.results) if raw.end >= 0)
    ends = [end for end, _ in pairs]
    latest: list[int] = []
    for _, index in pairs:
        latest.append(max(index, latest[-1]) if latest else index)
    return ends, latest


def _preceding(
    flat: FlatSource, walk: WalkOutput, proof: RawProof, ends: tuple[list[int], list[int]]
) -> int | None:
    """The last result that ends before the proof begins, if nothing but text lies between."""
    count = bisect.bisect_right(ends[0], proof.begin)
    if count == 0:
        return None
    best = ends[1][count - 1]
    gap = flat.text[walk.results[best].end : proof.begin]
    if len(gap) > _GAP_LIMIT or _SECTIONING.search(gap) or crosses_prose(gap):
        return None
    return best


_FLOATS = lazyre.pattern(
    r"\\begin\s*\{(figure|table|algorithm|wrapfigure|center|tikzpicture)\*?\}.*?"
    r"\\end\s*\{\1\*?\}",
    re.S,
)
_NOT_PROSE = lazyre.pattern(
    r"\\(?:label|vspace|hspace|vskip|hskip|addvspace|index|phantomsection|nopagebreak"
    r"|pagebreak|newpage|clearpage|noindent|par|medskip|smallskip|bigskip|leavevmode|relax"
    r"|FloatBarrier)\b\*?(?:\s*\{[^{}]*\}|\s*\[[^]]*\])*"
)
_LEAD_IN = lazyre.pattern(r"\b(?:prove|proof|proven|proving|show)\b", re.I)


_ALNUM = lazyre.pattern(r"[A-Za-z0-9]")
_BLANKS = lazyre.pattern(r"[ \t]+")


def crosses_prose(gap: str) -> bool:
    """Does text between a result and a proof hold prose? Whitespace, comments (blanked
    already), labels, spacing and floats do not count; one short lead-in sentence about the
    proof ("We now prove it.") does not either. A paragraph of background does."""
    rest = _NOT_PROSE.sub(" ", _FLOATS.sub(" ", gap)).strip()
    if not _ALNUM.search(rest):
        return False
    return len(rest) > 120 or "\n\n" in _BLANKS.sub(" ", rest) or not _LEAD_IN.search(rest)


def _proof(flat: FlatSource, proof: RawProof, how: str) -> DraftProof:
    end = proof.end if proof.end >= 0 else len(flat.text)
    body_end = proof.body_end if proof.body_end >= 0 else end
    file, start = flat.locate(proof.begin)
    _, stop = flat.locate(max(end - 1, proof.begin))
    return DraftProof(
        span=DraftSpan(file=file, start_line=start, end_line=max(stop, start)),
        text=flat.text[proof.body_start : body_end].strip(),
        attached_by=how,
    )


def _attach_paragraphs(flat: FlatSource, walk: WalkOutput, results: list[DraftResult]) -> None:
    for raw, result in zip(walk.results, results, strict=True):
        if result.proof is not None or raw.end < 0:
            continue
        head = _PARAGRAPH_HEAD.match(flat.text, raw.end)
        if head is None:
            continue
        stop = _PROOF_END.search(flat.text, head.end())
        end = stop.end() if stop else min(len(flat.text), head.end() + 3000)
        paragraph = RawProof(
            env="paragraph",
            note=None,
            begin=head.start(),
            body_start=head.end(),
            end=end,
            body_end=stop.start() if stop else end,
        )
        result.proof = _proof(flat, paragraph, "paragraph")


def owner_of_proof(proof_index: int, owners: dict[int, int], ids: list[str]) -> str | None:
    target = owners.get(proof_index)
    return ids[target] if target is not None else None


def _inside_proof(walk: WalkOutput, pos: int) -> bool:
    return any(p.begin <= pos < (p.end if p.end >= 0 else pos + 1) for p in walk.proofs)


_HEAD_END = lazyre.pattern(r"[.:]\}?|\}")  # where "Proof of Lemma 3.6." ends


def _attach_proof_of_paragraphs(
    flat: FlatSource,
    walk: WalkOutput,
    results: list[DraftResult],
    key_owner: dict[str, int],
    by_number: dict[tuple[str, str], int],
) -> None:
    """ "Proof of Lemma 3.6." written as a paragraph anywhere, with no proof environment."""
    if all(r.proof is not None for r in results):
        return
    starts = sorted(p.begin for p in walk.proofs)
    for match in _PROOF_OF.finditer(flat.text):
        tail = flat.text[match.end() : match.end() + 120].split("\n\n")[0]
        target = _by_reference(tail, key_owner, by_number)
        if target is None or results[target].proof is not None:
            continue
        following = bisect.bisect_left(starts, match.end())
        if following < len(starts) and starts[following] - match.end() < _HEADING_WINDOW:
            continue  # a heading of a proof environment, handled with it
        if _inside_proof(walk, match.start()):
            continue
        head = _HEAD_END.search(tail)
        body_start = match.end() + (head.end() if head else 0)
        stop = _PROOF_END.search(flat.text, body_start)
        end = stop.end() if stop else min(len(flat.text), body_start + 3000)
        body_end = stop.start() if stop else end
        paragraph = RawProof("paragraph", None, match.start(), body_start, end, body_end)
        results[target].proof = _proof(flat, paragraph, "paragraph")
        walk.problems.append(
            Problem(
                match.start(),
                "info",
                "proof-paragraph",
                f"proof of {results[target].title} {results[target].number} found as "
                "a paragraph, not an environment: check where it ends",
            )
        )

"""Match the results of a new version of a paper to those of the kept version (issue #8).

Pure: two inventories in, one `Match` out. Results are paired, in this order of trust,
1. by label (the author's own name for a result survives renumbering; an unlabelled id
   carries its number, so ids are not labels here);
2. by printed number and kind, when the pair is also each other's closest statement (an
   unlabelled lemma inserted early shifts every later number, so a bare number is not enough);
3. by statement similarity alone, best pairs first, above `SIMILARITY_THRESHOLD`.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Final, Literal

from paperlint.blueprint.fingerprint import normalise_tex
from paperlint.preflight.model import Inventory, Result

# Below this ratio two statements are different results, not an edited one.
SIMILARITY_THRESHOLD: Final = 0.6
# A pair with the same number and kind needs less textual agreement to count as the same result.
NUMBER_THRESHOLD: Final = 0.3

MatchedBy = Literal["label", "number", "similarity"]


@dataclass(frozen=True)
class Pair:
    old: str  # result id in the kept version
    new: str  # result id in the new version
    by: MatchedBy
    old_number: str | None
    new_number: str | None


@dataclass(frozen=True)
class Match:
    pairs: list[Pair] = field(default_factory=list)  # in the new version's document order
    added: list[str] = field(default_factory=list)  # new ids with no counterpart
    removed: list[str] = field(default_factory=list)  # old ids with no counterpart
    moved: list[str] = field(default_factory=list)  # new ids whose relative order changed

    def old_to_new(self) -> dict[str, str]:
        return {p.old: p.new for p in self.pairs}

    def new_to_old(self) -> dict[str, str]:
        return {p.new: p.old for p in self.pairs}

    @property
    def renumbered(self) -> list[Pair]:
        return [p for p in self.pairs if p.old_number != p.new_number]


def match_results(old: Inventory, new: Inventory) -> Match:
    """Pair every result of `new` with at most one result of `old` (see the module docstring)."""
    olds = {r.id: r for r in old.results}
    news = {r.id: r for r in new.results}
    found: dict[str, tuple[str, MatchedBy]] = {}  # new id -> (old id, how)
    _match_labels(old.results, new.results, found)
    _match_numbers(olds, news, found)
    _match_similar(olds, news, found)
    pairs = [
        Pair(found[r.id][0], r.id, found[r.id][1], olds[found[r.id][0]].number, r.number)
        for r in new.results
        if r.id in found
    ]
    taken = {p.old for p in pairs}
    return Match(
        pairs=pairs,
        added=[r.id for r in new.results if r.id not in found],
        removed=[r.id for r in old.results if r.id not in taken],
        moved=_moved(old, pairs),
    )


def _match_labels(
    old: list[Result], new: list[Result], found: dict[str, tuple[str, MatchedBy]]
) -> None:
    by_label: dict[str, str] = {}
    for r in old:
        for label in r.labels:
            by_label.setdefault(label, r.id)
    taken: set[str] = set()
    for r in new:
        for label in r.labels:
            old_id = by_label.get(label)
            if old_id is not None and old_id not in taken:
                found[r.id] = (old_id, "label")
                taken.add(old_id)
                break


def _match_numbers(
    olds: dict[str, Result], news: dict[str, Result], found: dict[str, tuple[str, MatchedBy]]
) -> None:
    free_old = _free_old(olds, found)
    free_new = [r for rid, r in news.items() if rid not in found]
    for r in free_new:
        same = [o for o in free_old if o.number and o.number == r.number and o.kind == r.kind]
        if not same:
            continue
        candidate = same[0]
        score = similarity(candidate.statement, r.statement)
        best_for_new = max(free_old, key=lambda o: similarity(o.statement, r.statement))
        best_for_old = max(free_new, key=lambda n: similarity(candidate.statement, n.statement))
        mutual = best_for_new.id == candidate.id and best_for_old.id == r.id
        if score >= NUMBER_THRESHOLD and mutual:
            found[r.id] = (candidate.id, "number")
            free_old.remove(candidate)


def _match_similar(
    olds: dict[str, Result], news: dict[str, Result], found: dict[str, tuple[str, MatchedBy]]
) -> None:
    free_old = _free_old(olds, found)
    free_new = [r for rid, r in news.items() if rid not in found]
    scored = [
        (similarity(o.statement, n.statement), i, j)
        for i, n in enumerate(free_new)
        for j, o in enumerate(free_old)
    ]
    used_old: set[int] = set()
    used_new: set[int] = set()
    # best pairs first; ties go to document order, so the outcome is deterministic
    for score, i, j in sorted(scored, key=lambda s: (-s[0], s[1], s[2])):
        if score < SIMILARITY_THRESHOLD or i in used_new or j in used_old:
            continue
        found[free_new[i].id] = (free_old[j].id, "similarity")
        used_new.add(i)
        used_old.add(j)


def _free_old(olds: dict[str, Result], found: dict[str, tuple[str, MatchedBy]]) -> list[Result]:
    taken = {old_id for old_id, _ in found.values()}
    return [r for rid, r in olds.items() if rid not in taken]


def similarity(a: str, b: str) -> float:
    """How alike two statements are, 0..1, on normalised text (whitespace and comments ignored)."""
    left, right = normalise_tex(a), normalise_tex(b)
    if left == right:
        return 1.0
    return difflib.SequenceMatcher(None, left, right, autojunk=False).ratio()


def _moved(old: Inventory, pairs: list[Pair]) -> list[str]:
    """Matched results outside the longest run kept in the same relative order: an insertion
    or a deletion elsewhere does not move a result, only a change of its place among the
    others does."""
    rank = {r.id: i for i, r in enumerate(old.results)}
    old_order = sorted((p.old for p in pairs), key=lambda rid: rank[rid])
    new_order = [p.old for p in pairs]
    matcher = difflib.SequenceMatcher(None, old_order, new_order, autojunk=False)
    kept = {new_order[b.b + k] for b in matcher.get_matching_blocks() for k in range(b.size)}
    return [p.new for p in pairs if p.old not in kept]


def find_quote(text: str, quote: str) -> list[re.Match[str]]:
    """Where `quote` occurs in `text`, whitespace and line breaks aside (a reflowed paragraph
    keeps its words)."""
    words = quote.split()
    if not words:
        return []
    return list(re.finditer(r"\s+".join(re.escape(word) for word in words), text))

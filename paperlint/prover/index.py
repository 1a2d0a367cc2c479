"""The declaration index: every constant of the pinned environment, searched by BM25.

Built from the extraction `paperlint setup` makes (`paperlint.lean.extraction`, which reads it).

Ranking is BM25 over one bag of tokens per declaration: name tokens count `NAME_WEIGHT` times,
type and docstring tokens once (`paperlint.prover.tokens`). Postings are `array`s of document
ids and precomputed term weights, so 250,000 declarations fit in tens of megabytes and a query
is a few dictionary updates per posting. Each token's postings are kept in impact order (highest
BM25 weight first) and a query reads at most `SCAN` of them per token: a token held by 100,000
declarations contributes only where it weighs most (in a short name), and the rest of its
postings, each worth less than the last one read, are skipped. Rare tokens are scored exactly.
This keeps a query under the 50 ms of issue #13 on 250,000 declarations.

Building takes seconds at that size, so `paperlint setup` saves the built index beside the
extraction (`save`, format `paperlint.decl_index/1` below) and a run opens it lazily
(`IndexFile`): nothing is read until the first search, and then the postings are read as three
flat arrays, not rebuilt. The saved file names the extraction it was built from (size and
modification time); one that does not match, or is unreadable, is ignored and the index is
built from the extraction as before.

Format: one JSON header line `{"schema", "source": {"size", "mtime_ns"}, "sections": [byte
lengths]}`, then the sections back to back: the declarations (a JSON array of `[name, kind,
module, type, doc]`), the tokens (a JSON array), each token's first posting (`q` array, one
more than the tokens), every posting's declaration (`i` array) and weight (`f` array), in the
machine's byte order (a file from another byte order is refused by its header's `byteorder`).
"""

from __future__ import annotations

import heapq
import json
import logging
import math
import sys
import threading
from array import array
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Final, Protocol

from pydantic import BaseModel, ConfigDict

from paperlint.lean.extraction import MathlibDeclaration
from paperlint.prover.tokens import doc_tokens, name_tokens, query_tokens, type_tokens

log = logging.getLogger(__name__)

SAVED_SCHEMA: Final = "paperlint.decl_index/1"
NAME_WEIGHT = 3
SCAN = 3000
K1 = 1.2
B = 0.75
_DOC_TOKENS = 60  # a long docstring should not outweigh the name


class Hit(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    type: str
    module: str | None
    doc: str | None
    score: float


def declaration_tokens(decl: MathlibDeclaration) -> Counter[str]:
    counts: Counter[str] = Counter()
    for token in name_tokens(decl.name):
        counts[token] += NAME_WEIGHT
    counts.update(type_tokens(decl.type))
    if decl.doc:
        counts.update(doc_tokens(decl.doc)[:_DOC_TOKENS])
    return counts


class SearchIndex(Protocol):
    """What the prover's tools ask of an index (a built `DeclIndex`, or an `IndexFile`)."""

    def search(
        self, query: str, *, limit: int = 8, hidden: frozenset[str] = frozenset()
    ) -> list[Hit]: ...

    def get(self, name: str) -> MathlibDeclaration | None: ...


Row = tuple[str, str, str | None, str, str | None]  # name, kind, module, type, doc


class DeclIndex:
    """BM25 over declarations. Build once; `search` is read-only and deterministic."""

    def __init__(self, decls: Iterable[MathlibDeclaration]) -> None:
        built = list(decls)
        self._rows: list[Row] = [(d.name, d.kind, d.module, d.type, d.doc) for d in built]
        self._names = [d.name for d in built]
        self._by_name = {name: i for i, name in enumerate(self._names)}
        bags = [declaration_tokens(d) for d in built]
        lengths = [sum(bag.values()) for bag in bags]
        average = (sum(lengths) / len(lengths)) if lengths else 1.0
        raw: dict[str, tuple[array[int], list[float]]] = {}
        for doc, bag in enumerate(bags):
            norm = K1 * (1 - B + B * lengths[doc] / average)
            for token, tf in bag.items():
                ids, tfs = raw.setdefault(token, (array("i"), []))
                ids.append(doc)
                tfs.append(tf * (K1 + 1) / (tf + norm))
        total = len(built)
        self._postings: dict[str, tuple[Sequence[int], Sequence[float]]] = {}
        for token, (ids, tfs) in raw.items():
            idf = math.log(1 + (total - len(ids) + 0.5) / (len(ids) + 0.5))
            order = sorted(range(len(ids)), key=lambda i: (-tfs[i], ids[i]))
            self._postings[token] = (
                array("i", (ids[i] for i in order)),
                array("f", (tfs[i] * idf for i in order)),
            )

    def __len__(self) -> int:
        return len(self._rows)

    def get(self, name: str) -> MathlibDeclaration | None:
        index = self._by_name.get(name)
        return None if index is None else self._decl(index)

    def _decl(self, doc: int) -> MathlibDeclaration:
        name, kind, module, type_, doc_text = self._rows[doc]
        return MathlibDeclaration(name=name, kind=kind, module=module, type=type_, doc=doc_text)

    def search(
        self, query: str, *, limit: int = 8, hidden: frozenset[str] = frozenset()
    ) -> list[Hit]:
        """The best `limit` declarations for `query`, never one whose name is in `hidden`."""
        repeats = Counter(t for t in query_tokens(query) if t in self._postings)
        scores: dict[int, float] = {}
        get = scores.get
        for token, count in sorted(repeats.items()):
            ids, weights = self._postings[token]
            boost = 1.0 + 0.25 * (count - 1)
            for doc, weight in zip(ids[:SCAN], weights[:SCAN], strict=True):
                scores[doc] = get(doc, 0.0) + weight * boost
        exact = self._by_name.get(query.strip())
        if exact is not None:
            scores[exact] = scores.get(exact, 0.0) + 100.0
        names = self._names
        ranked = heapq.nlargest(
            limit + len(hidden),
            scores.items(),
            key=lambda item: (item[1], -len(names[item[0]]), -item[0]),
        )
        kept = [(doc, score) for doc, score in ranked if names[doc] not in hidden]
        return [self._hit(doc, score) for doc, score in kept[:limit]]

    def _hit(self, doc: int, score: float) -> Hit:
        name, _, module, type_, doc_text = self._rows[doc]
        return Hit(name=name, type=type_, module=module, doc=doc_text, score=round(score, 4))

    # --- the saved form ------------------------------------------------------------------

    def save(self, path: Path, source: Path) -> None:
        """Write the built index to `path` (atomically), naming the extraction `source`."""
        from paperlint.store import write_bytes_atomic

        tokens = list(self._postings)
        starts, ids, weights = array("q", [0]), array("i"), array("f")
        for token in tokens:
            token_ids, token_weights = self._postings[token]
            ids.extend(token_ids)
            weights.extend(token_weights)
            starts.append(len(ids))
        sections = [
            json.dumps(self._rows, ensure_ascii=False, separators=(",", ":")).encode(),
            json.dumps(tokens, ensure_ascii=False, separators=(",", ":")).encode(),
            starts.tobytes(),
            ids.tobytes(),
            weights.tobytes(),
        ]
        stat = source.stat()
        header = {
            "schema": SAVED_SCHEMA,
            "byteorder": sys.byteorder,
            "source": {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns},
            "sections": [len(part) for part in sections],
        }
        write_bytes_atomic(path, json.dumps(header).encode() + b"\n" + b"".join(sections))

    @classmethod
    def load(cls, path: Path, source: Path) -> DeclIndex | None:
        """The index saved at `path` for the extraction `source`; None when there is none, or
        it was built from another extraction, or it is not a saved index (then it is rebuilt:
        the file is only an accelerator, the extraction is the record)."""
        try:
            data = path.read_bytes()
            stat = source.stat()
        except OSError:
            return None
        try:
            return cls._decode(data, (stat.st_size, stat.st_mtime_ns))
        except (ValueError, TypeError, KeyError, IndexError) as exc:
            log.warning("%s: not a usable saved index (%s); building it again", path, exc)
            return None

    @classmethod
    def _decode(cls, data: bytes, source: tuple[int, int]) -> DeclIndex | None:
        end = data.index(b"\n")
        header = json.loads(data[:end])
        if header.get("schema") != SAVED_SCHEMA or header.get("byteorder") != sys.byteorder:
            raise ValueError(f"schema {header.get('schema')!r}, {header.get('byteorder')}")
        if (header["source"]["size"], header["source"]["mtime_ns"]) != source:
            return None  # built from an earlier extraction
        sizes = [int(n) for n in header["sections"]]
        if len(sizes) != 5 or sum(sizes) != len(data) - end - 1:
            raise ValueError("the sections do not add up to the file")
        view, parts, at = memoryview(data), [], end + 1
        for size in sizes:
            parts.append(view[at : at + size])
            at += size
        rows = json.loads(bytes(parts[0]))
        if not isinstance(rows, list) or not all(map(_is_row, rows)):
            raise ValueError("a declaration row is not [name, kind, module, type, doc]")
        tokens = json.loads(bytes(parts[1]))
        starts, ids, weights = array("q"), parts[3].cast("i"), parts[4].cast("f")
        starts.frombytes(parts[2])
        if len(starts) != len(tokens) + 1 or starts[-1] != len(ids) or len(ids) != len(weights):
            raise ValueError("the postings do not match the tokens")
        if any(b < a for a, b in zip(starts, starts[1:], strict=False)) or (
            len(ids) and not 0 <= min(ids) <= max(ids) < len(rows)
        ):
            raise ValueError("a posting is out of range")
        index = cls.__new__(cls)
        index._rows = rows  # lists, not tuples: read the same way, and not copied
        index._names = [row[0] for row in rows]
        index._by_name = {name: i for i, name in enumerate(index._names)}
        index._postings = {
            token: (ids[starts[i] : starts[i + 1]], weights[starts[i] : starts[i + 1]])
            for i, token in enumerate(tokens)
        }
        return index


def _is_row(row: object) -> bool:
    """[name, kind, module, type, doc]: strings, module and doc possibly null."""
    if type(row) is not list or len(row) != 5:
        return False
    name, kind, module, type_, doc = row
    return (
        type(name) is str
        and type(kind) is str
        and type(type_) is str
        and (module is None or type(module) is str)
        and (doc is None or type(doc) is str)
    )


def saved_file(extraction: Path) -> Path:
    """Where `paperlint setup` saves the index built from `extraction`."""
    return extraction.with_name(extraction.stem + ".index")


class IndexFile:
    """The index of an extraction, read at the first search: the saved one when it matches
    the extraction, else built from it (once per object; thread-safe)."""

    def __init__(self, extraction: Path) -> None:
        self.extraction = extraction
        self._index: DeclIndex | None = None
        self._lock = threading.Lock()

    def loaded(self) -> DeclIndex:
        with self._lock:
            if self._index is None:
                from paperlint.lean.extraction import read_extraction

                saved = DeclIndex.load(saved_file(self.extraction), self.extraction)
                self._index = saved or DeclIndex(read_extraction(self.extraction))
            return self._index

    def search(
        self, query: str, *, limit: int = 8, hidden: frozenset[str] = frozenset()
    ) -> list[Hit]:
        return self.loaded().search(query, limit=limit, hidden=hidden)

    def get(self, name: str) -> MathlibDeclaration | None:
        return self.loaded().get(name)


def save_index(extraction: Path) -> Path:
    """Build the index of `extraction` and save it beside it (`paperlint setup`)."""
    from paperlint.lean.extraction import read_extraction

    target = saved_file(extraction)
    DeclIndex(read_extraction(extraction)).save(target, extraction)
    return target

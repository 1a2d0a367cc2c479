"""Promoted library lemmas offered to the prover (issue #19).

A check takes a *copy* of the user's library at its start: every promoted lemma whose module
still hashes to what was promoted and whose pins are the current ones, as a self-contained
declaration (`theorem PaperlintLib.foo …`, with the module's `open`s as `open … in`). The copy is
written into the workspace (`library-offered.json`), so a resumed check and anyone re-running
the evidence see the same lemmas without the user's library.

A lemma is never imported: it is put, in full, before the candidate that uses it, so Lean's
kernel checks it again inside the paper's own file and the accepted file needs nothing outside
the workspace. A lemma whose pins changed is not offered until the library is built again
under the new pins (`paperlint library list` says which).

`library_rungs` is pure: for an obligation, the best few offered lemmas by the declaration
search's BM25 over their statements, each as one more automation rung
(`apply PaperlintLib.foo <;> assumption`), tried after the standard ladder and before any model.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Sequence
from typing import Final

from paperlint.lean.declarations import declarations, split_commands
from paperlint.lean.extraction import MathlibDeclaration as IndexEntry
from paperlint.lean.lexer import Kind
from paperlint.learning.library import Library, LibraryPins, status_of
from paperlint.prover.automation import Rung, gated_statement
from paperlint.prover.index import DeclIndex
from paperlint.records.learning import Offered, OfferedLemma

RUNG_PREFIX: Final = "library:"
DEFAULT_RUNGS: Final = 3


def inline_declaration(module_text: str, name: str) -> tuple[str, str] | None:
    """`name`'s declaration in a library module, made self-contained: the module's top-level
    `open`s as `open … in` prefixes and the name fully qualified; with its statement text."""
    short = name.rsplit(".", 1)[-1]
    found = next((d for d in declarations(module_text) if d.name in (name, short)), None)
    if found is None or found.terminator != ":=" or not found.statement:
        return None
    ident = next(
        (t for t in found.statement if t.kind is Kind.IDENT and t.text in (name, short)), None
    )
    if ident is None:
        return None
    start = found.keyword_token.offset
    head = module_text[start : ident.offset] + name
    rest = module_text[ident.end : found.command.end]
    opens = "".join(
        module_text[c.start : c.end].strip() + " in\n"
        for c in split_commands(module_text)
        if c.keyword == "open" and not c.is_scoped_prefix and c.end <= start
    )
    statement = module_text[ident.end : found.statement[-1].end].strip()
    return opens + head + rest.rstrip(), statement


def take_offer(library: Library, current: LibraryPins) -> Offered:
    """What a check starting now offers its prover (reads the library; writes nothing)."""
    lemmas: list[OfferedLemma] = []
    skipped: list[str] = []
    for entry in library.manifest().entries:
        if status_of(entry, current) == "needs_reverification":
            skipped.append(f"{entry.name}: its pins changed; build the library again")
            continue
        try:
            source = library.module_text(entry)
        except OSError:
            skipped.append(f"{entry.name}: its module is missing")
            continue
        if hashlib.sha256(source.encode()).hexdigest() != entry.text_sha256:
            skipped.append(f"{entry.name}: its module changed since it was promoted")
            continue
        inlined = inline_declaration(source, entry.name)
        if inlined is None:
            skipped.append(f"{entry.name}: no such declaration in its module")
            continue
        text, statement = inlined
        lemmas.append(
            OfferedLemma(
                name=entry.name,
                text=text,
                statement=statement,
                text_sha256=entry.text_sha256,
                promoted_at=entry.promoted_at,
                provenance=entry.provenance,
            )
        )
    return Offered(lemmas=tuple(lemmas), skipped=tuple(skipped))


def library_rungs(
    offered: Sequence[OfferedLemma],
    skeleton: str,
    *,
    limit: int = DEFAULT_RUNGS,
    declared: Collection[str] = (),
) -> list[Rung]:
    """The best `limit` offered lemmas for the obligation, each as one automation rung; a lemma
    already in `declared` (put before an earlier obligation) is used, not declared again."""
    if not offered or limit <= 0:
        return []
    try:
        statement = gated_statement(skeleton)
    except ValueError:
        return []
    by_name = {lemma.name: lemma for lemma in offered}
    index = DeclIndex(IndexEntry(name=m.name, type=m.statement) for m in offered)
    hits = index.search(statement, limit=limit)
    return [
        Rung(
            tactic=f"{RUNG_PREFIX}{hit.name}",
            candidate=(
                ("" if hit.name in declared else f"{by_name[hit.name].text}\n\n")
                + f"{statement} := by\n  apply {hit.name} <;> assumption"
            ),
        )
        for hit in hits
    ]

"""The records of a revised check: old records carried over, reset ones rewound (issue #8).

Pure: records in, records out. A reset result is rewound by `paperlint.records.rewind` (each
step's own slot declares what a reset keeps of it).

Every reset result loses its verdict and the evidence the reset invalidates. Unchanged results
keep their records and evidence untouched: only their printed number and, for one renumbered
or relabelled, their id follow the new version (`changes.carried_renames`; one whose label was
added or removed is reset, `changes.RENAMED`). Added results start pending; removed ones are
dropped.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TypeVar

from pydantic import BaseModel

import paperlint.engine.steps  # noqa: F401  (the registry teaches the rewind the steps' slots)
from paperlint.blueprint.model import Blueprint, BlueprintEntry
from paperlint.blueprint.names import module_file
from paperlint.domain import INPUT_KINDS
from paperlint.preflight.model import Inventory
from paperlint.records.initial import initial_record, is_verdict_bearing
from paperlint.records.layout import safe_name
from paperlint.records.results import ResultRecord, Results
from paperlint.records.rewind import rewind
from paperlint.records.slots import draft_of
from paperlint.revise.changes import Reset
from paperlint.revise.match import Match, find_quote

M = TypeVar("M", bound=BaseModel)


def revised_results(
    old: Results,
    new_inventory: Inventory,
    blueprint: Blueprint,
    match: Match,
    resets: list[Reset],
    sources: Mapping[str, str] | None = None,
    renamed: Mapping[str, str] | None = None,
) -> Results:
    """`old` carried over to the new version: matched records renamed and renumbered, reset
    ones rewound, added ones fresh, removed ones gone, kept issues pointing at their quote's
    line in `sources` (the new version's files). `blueprint` is the new one."""
    by_old = {r.id: r for r in old.results}
    old_of = match.new_to_old()
    action_of = {r.id: r.action for r in resets}
    names = {e.id: e.lean_name for e in blueprint.entries}
    records = []
    for result in new_inventory.results:
        previous = by_old.get(old_of.get(result.id, ""))
        if previous is None:
            records.append(initial_record(result, names.get(result.id)))
            continue
        if previous.id != result.id:
            previous = rehome(previous, result.id)
        record = previous.model_copy(
            update={
                "id": result.id,
                "number": result.number,
                "kind": result.kind,
                "verdict_bearing": is_verdict_bearing(result),
            }
        )
        action = action_of.get(result.id)
        kept = relocate(record, sources or {}, renamed or {})
        records.append(rewind(record, action, revision=True) if action else kept)
    return old.model_copy(update={"results": records})


def rehome(record: ResultRecord, new_id: str) -> ResultRecord:
    """The record and its working state with every path into its audits folder moved to the
    new id's folder (the revision moves the folder too, `moved_paths`), so that a result that
    now has its old id cannot write over it. Its gate and other audit records, and its
    events, keep naming the old id; the revision event's `renamed` says which
    (`paperlint.records.history`)."""

    def move(model: M) -> M:  # each slot through its own type: `work` is no part of the JSON
        text = moved_paths(model.model_dump_json(by_alias=True), record.id, new_id)
        return type(model).model_validate_json(text)

    slots = {kind: move(slot) for kind, slot in record.work.slots.items()}
    return move(record).with_work(record.work.model_copy(update={"slots": slots}))


def moved_paths(text: str, old_id: str, new_id: str) -> str:
    """JSON `text` with every path into the old id's audits folder into the new id's: the
    paths a field holds and those a message names ("its turns are kept in audits/…")."""
    folder = re.escape(f"audits/{safe_name(old_id)}/")
    return re.sub(rf"(?<![\w./-]){folder}", f"audits/{safe_name(new_id)}/", text)


def relocate(
    record: ResultRecord, sources: Mapping[str, str], renamed: Mapping[str, str] | None = None
) -> ResultRecord:
    """A kept issue's location moved to where its quote now is (lines shift when text is
    inserted above it, a reflow moves line breaks), the occurrence nearest the old line, in
    the file the old one became (`renamed`: the old main file to the new one). The quote is
    re-read from the new text, so it stays verbatim; unchanged if the quote is gone
    (`changes.plan_resets` resets such a result)."""
    issue = record.issue
    if issue is None:
        return record
    file = (renamed or {}).get(issue.location.file, issue.location.file)
    text = sources.get(file, "")
    found = find_quote(text, issue.location.quote)
    if not found:
        return record
    best = min(found, key=lambda m: abs(text.count("\n", 0, m.start()) + 1 - issue.location.line))
    location = issue.location.model_copy(
        update={"file": file, "line": text.count("\n", 0, best.start()) + 1, "quote": best[0]}
    )
    return record.model_copy(update={"issue": issue.model_copy(update={"location": location})})


def renamed_files(old: Inventory, new: Inventory) -> dict[str, str]:
    """Old file -> new file: the old main file is the new main file whatever its name
    (`paper.tex` -> `paper-v2.tex`); other files keep their names."""
    kept = {entry.path for entry in new.files}
    if old.root == new.root or old.root in kept:
        return {}
    return {old.root: new.root}


def carry_names(new: Blueprint, old: Blueprint, match: Match) -> Blueprint:
    """The new blueprint, with each matched result keeping its old Lean name, module and file:
    kept evidence and other results' Lean contexts refer to them, and a renumbering must not
    rename them."""
    olds = {e.id: e for e in old.entries}
    old_of = match.new_to_old()
    carried = {e.id: olds[old_of[e.id]] for e in new.entries if old_of.get(e.id) in olds}
    taken = {e.lean_name for e in carried.values()} | {e.module for e in carried.values()}
    entries = []
    for entry in new.entries:
        before = carried.get(entry.id)
        if before is not None:
            entry = entry.model_copy(
                update={
                    "lean_name": before.lean_name,
                    "module": before.module,
                    "lean_file": before.lean_file,
                }
            )
        elif entry.lean_name in taken or entry.module in taken:
            entry = _renamed(entry, taken)
        taken |= {entry.lean_name, entry.module}
        entries.append(entry)
    return new.model_copy(update={"entries": entries})


def _renamed(entry: BlueprintEntry, taken: set[str]) -> BlueprintEntry:
    """An added result whose name a carried one keeps (an unlabelled lemma inserted early is
    named from the number its neighbour had): a fresh suffix, never a shared Lean file."""
    k = 2
    while f"{entry.lean_name}_v{k}" in taken or f"{entry.module}_v{k}" in taken:
        k += 1
    module = f"{entry.module}_v{k}"
    return entry.model_copy(
        update={
            "lean_name": f"{entry.lean_name}_v{k}",
            "module": module,
            "lean_file": module_file(module),
        }
    )


def formalised_ids(results: Results) -> list[str]:
    """Old ids the engine works on: claims with a verdict, and the inputs it formalises."""
    return [r.id for r in results.results if r.verdict_bearing or r.kind in INPUT_KINDS]


def clause_sources(results: Results) -> dict[str, set[str]]:
    """The results each draft's conditions name by id (a clause of another result), by id:
    the condition, gated with the draft, names the id as it was."""
    out = {}
    for record in results.results:
        draft = draft_of(record.work)
        named = {c.result for c in draft.conditions if c.result} if draft else set()
        if named:
            out[record.id] = named
    return out


def issue_quotes(results: Results) -> dict[str, tuple[str, str]]:
    """(file, quote) of every recorded issue, by result id."""
    return {
        r.id: (r.issue.location.file, r.issue.location.quote)
        for r in results.results
        if r.issue is not None
    }

"""What changed between two versions of a paper, and what must be redone (issue #8).

Pure: inventories, the kept blueprint and a `Match` in, a list of `Reset`s out.

A matched result is *changed* when its statement or proof, a macro it uses, or a bibliography
entry it cites changed, compared on normalised text (whitespace and `%` comments never count,
docs/prior-art.md §4.3). What follows from a change is read off the **kept** blueprint's graph,
because the work being reset was planned on it:

- statement changed → `re-draft` it; every result whose statement mentions it, transitively
  over statement edges, → `re-gate`; every result whose proof uses it or one of those → `re-prove`;
- proof changed only → `re-prove` it, and nothing else (its statement, and so its users, stand);
- a removed result acts as a changed statement for its users;
- a result whose id changed because its label was renamed (`lem:x` -> `lem:xx`, its `\\ref`s
  with it) or, unlabelled, because it was renumbered (`lemma:2.2` -> `lemma:2.3`) keeps its
  records and evidence under the new id (`carried_renames`); its users are redone as for a
  changed statement (their checker layouts and `\\ref`s name it by the id);
- a label added or removed is an edit of the statement: `re-draft`;
- a result whose draft has a condition on a renamed or removed result (a clause of it, named
  by its old id) → `re-draft`;
- anything else is untouched: it keeps its records and evidence.

Where several reasons meet, the strongest action wins (re-draft > re-gate > re-prove).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from paperlint.blueprint.fingerprint import normalise_tex
from paperlint.blueprint.graph import dependents, graph_of, predecessors
from paperlint.blueprint.model import Blueprint
from paperlint.digraph import Digraph
from paperlint.domain import INPUT_KINDS
from paperlint.preflight.model import Inventory, Result
from paperlint.records.work import ResetAction
from paperlint.revise.match import Match, find_quote

STRENGTH: Final[dict[str, int]] = {"re-prove": 1, "re-gate": 2, "re-draft": 3}

# A result whose id changed with a label added or removed is started over (it is an edit of
# its statement too); one renamed or renumbered keeps its records (`carried_renames`).
RENAMED: Final = "its id changed ({old} -> {new}): its records and events name the old one"

# Which recorded model calls a reset repeats: a re-gate keeps the plan and the draft, a
# re-prove also keeps the gate. Used only for the cost estimate.
SKIPPED_TASKS: Final[dict[str, frozenset[str]]] = {
    "re-draft": frozenset(),
    "re-gate": frozenset({"architect", "drafter"}),
    "re-prove": frozenset({"architect", "drafter", "gate"}),
}


@dataclass(frozen=True)
class Edits:
    """Why one matched result changed, split by what the change touches."""

    statement: tuple[str, ...] = ()
    proof: tuple[str, ...] = ()


@dataclass(frozen=True)
class Reset:
    id: str  # in the new version
    old_id: str  # in the kept version (records are carried over from it)
    action: ResetAction
    why: str

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "action": self.action, "why": self.why}


def plan_resets(
    old: Inventory,
    new: Inventory,
    blueprint: Blueprint,
    match: Match,
    *,
    formalised: Iterable[str],
    quotes: Mapping[str, tuple[str, str]] | None = None,
    sources: Mapping[str, str] | None = None,
    clauses: Mapping[str, Iterable[str]] | None = None,
) -> list[Reset]:
    """The resets a revision needs, in the new version's document order. `blueprint` is the
    kept one; `formalised` lists the old ids the engine works on (others have nothing to reset);
    `quotes` maps the old id of each recorded issue to its (file, quote), and `sources` the new
    version's files to their text (under the old names too, when the main file was renamed):
    an issue must quote the source (docs/design.md §5), whitespace aside. `clauses` maps an
    old id to the results its draft's conditions name by id (clauses of other results): a
    draft naming a result that was renamed or removed is drafted again."""
    edits = edits_by_old_id(old, new, match)
    reasons: dict[str, dict[ResetAction, list[str]]] = {}  # old id -> action -> why

    def add(old_id: str, action: ResetAction, why: str) -> None:
        reasons.setdefault(old_id, {}).setdefault(action, []).append(why)

    for old_id, (file, quote) in (quotes or {}).items():
        if not find_quote((sources or {}).get(file, ""), quote):
            # a reflow is no change (the quote is re-read from the new text); a real edit is
            add(old_id, "re-prove", "its issue's quote no longer occurs in the source")

    for old_id, edit in edits.items():
        for why in edit.statement:
            add(old_id, "re-draft", why)
        for why in edit.proof:
            add(old_id, "re-prove", why)
    carried = carried_renames(old, new, match)
    for pair in match.pairs:
        if pair.old != pair.new and pair.old not in carried:
            add(pair.old, "re-draft", RENAMED.format(old=pair.old, new=pair.new))
    graph = graph_of(blueprint)
    names = match.old_to_new()
    # a condition gated with a draft names a result by its id: renamed or removed, it is gone
    gone = {p.old: "whose id changed" for p in match.pairs if p.old != p.new}
    gone |= dict.fromkeys(match.removed, "which was removed")
    seeds = {i: "whose statement changed" for i, e in edits.items() if e.statement} | gone
    for seed, what in seeds.items():
        if seed in graph:
            _propagate(graph, seed, names, what, add)
    for user, named in (clauses or {}).items():
        for seed in sorted(gone.keys() & set(named)):
            shown = names.get(seed, seed)
            add(user, "re-draft", f"its draft has a condition on {shown}, {gone[seed]}")
    # a definition has no proof to redo: once gated it is done
    statement_only = {r.id for r in old.results if r.kind in INPUT_KINDS}
    for old_id in statement_only & set(reasons):
        reasons[old_id].pop("re-prove", None)
        if not reasons[old_id]:
            del reasons[old_id]
    return _ordered(reasons, names, set(formalised), match)


def carried_renames(old: Inventory, new: Inventory, match: Match) -> set[str]:
    """Old ids of the results that keep their records under a new id: the id changed because
    the result's number did (unlabelled in both versions: `lemma:2.2` -> `lemma:2.3`) or its
    label was renamed (labelled in both: `lem:x` -> `lem:xx`, its `\\ref`s with it).

    Neither is an edit of what the result says (`result_edits` reads a renamed label back),
    and their Lean names follow them (`apply.carry_names`). Their records and events keep
    naming the old id, and so do their checker runs' module names and the gate's hash of a
    statement holding the old `\\label`: the readers of the workspace follow the revision
    event's `renamed` (`records.history`, `records.modules`, `validate.soundness_rules`). A
    result that uses one is redone as for any result whose id changed: its own checker layout
    names the used result's modules by the id, and a statement that `\\ref`s it reads another
    text. A label added or removed is an edit of the statement (`_what_changed`)."""
    olds = {r.id: r for r in old.results}
    news = {r.id: r for r in new.results}
    return {
        p.old
        for p in match.pairs
        if p.old != p.new and bool(olds[p.old].labels) == bool(news[p.new].labels)
    }


def _propagate(graph: Digraph, seed: str, names: Mapping[str, str], what: str, add: Any) -> None:
    shown = names.get(seed, seed)
    restated = dependents(graph, seed, "statement")
    for rid in restated:
        add(rid, "re-gate", f"its statement depends on {shown}, {what}")
    changed = {seed, *restated}
    for rid in dependents(graph, seed, "proof"):
        if rid in restated:
            continue
        via = [u for u in predecessors(graph, rid, "proof") if u in changed]
        source = via[0] if via else seed
        if source == seed:
            add(rid, "re-prove", f"its proof uses {shown}, {what}")
        else:
            add(rid, "re-prove", f"its proof uses {names.get(source, source)}, to be re-gated")


def _ordered(
    reasons: dict[str, dict[ResetAction, list[str]]],
    names: Mapping[str, str],
    keep: set[str],
    match: Match,
) -> list[Reset]:
    position = {p.new: i for i, p in enumerate(match.pairs)}
    out = []
    for old_id, by_action in reasons.items():
        if old_id not in names or old_id not in keep:
            continue  # removed, or never formalised: nothing to reset
        action: ResetAction = max(by_action, key=lambda a: STRENGTH[a])
        whys = [w for a in sorted(by_action, key=lambda a: -STRENGTH[a]) for w in by_action[a]]
        out.append(Reset(names[old_id], old_id, action, "; ".join(dict.fromkeys(whys))))
    return sorted(out, key=lambda r: position[r.id])


def edits_by_old_id(old: Inventory, new: Inventory, match: Match) -> dict[str, Edits]:
    """What changed in each matched result, keyed by its old id (unchanged ones left out)."""
    olds = {r.id: r for r in old.results}
    news = {r.id: r for r in new.results}
    relabel = _relabels(match, olds, news)
    out = {}
    for pair in match.pairs:
        edit = result_edits(olds[pair.old], news[pair.new], old, new, relabel)
        if edit.statement or edit.proof:
            out[pair.old] = edit
    return out


def result_edits(
    before: Result,
    after: Result,
    old: Inventory,
    new: Inventory,
    relabel: Mapping[str, str] | None = None,
) -> Edits:
    """Why `after` differs from `before`: text, macros and cited entries, per part."""
    relabel = relabel or {}
    parts = {
        "statement": (before.statement, _rename(after.statement, relabel)),
        "proof": (
            before.proof.text if before.proof else "",
            _rename(after.proof.text if after.proof else "", relabel),
        ),
    }
    found: dict[str, list[str]] = {"statement": [], "proof": []}
    if before.kind != after.kind:
        # a lemma promoted to a theorem reads the same, but a definition that became a claim
        # is formalised differently: start it over either way
        found["statement"].append(f"kind changed ({before.kind} -> {after.kind})")
    for part, (was, now) in parts.items():
        if normalise_tex(was) != normalise_tex(now):
            found[part].append(_what_changed(part, was, now))
        for name in _changed_macros(was, now, old, new):
            found[part].append(f"macro {name} used in the {part} changed")
    for key, where in _changed_citations(before, after, old, new):
        found["proof" if where == "proof" else "statement"].append(f"cited entry {key} changed")
    return Edits(statement=tuple(found["statement"]), proof=tuple(found["proof"]))


_LABEL = re.compile(r"\\label\s*(?:\[[^\]]*\])?\s*\{[^{}]*\}")


def _what_changed(part: str, was: str, now: str) -> str:
    """`statement changed`, or, when a `\\label` added or removed is the whole change, that
    (the records and the gate's reading name the old text, so the result is redone; the label
    put back keeps its verdict)."""
    if normalise_tex(_LABEL.sub("", was)) == normalise_tex(_LABEL.sub("", now)):
        return f"only a \\label added or removed in the {part} (put it back to keep the verdict)"
    return f"{part} changed"


def _changed_macros(was: str, now: str, old: Inventory, new: Inventory) -> list[str]:
    before = {m.name: (normalise_tex(m.definition), m.arity) for m in old.macros}
    after = {m.name: (normalise_tex(m.definition), m.arity) for m in new.macros}
    names = sorted(set(before) | set(after))
    used = [n for n in names if _uses_macro(was, n) or _uses_macro(now, n)]
    return [n for n in used if before.get(n) != after.get(n)]


def _uses_macro(text: str, name: str) -> bool:
    # a control word ends at the first non-letter: `\E` is not used by `\Exp`
    tail = r"(?![A-Za-z@])" if name[-1:].isalpha() else ""
    return re.search(re.escape(name) + tail, text) is not None


def _changed_citations(
    before: Result, after: Result, old: Inventory, new: Inventory
) -> list[tuple[str, str]]:
    was = {b.key: normalise_tex(b.text) for b in old.bibliography}
    now = {b.key: normalise_tex(b.text) for b in new.bibliography}
    cited = {(c.key, c.where) for c in [*before.citations, *after.citations]}
    return sorted((k, w) for k, w in cited if was.get(k) != now.get(k))


def _relabels(
    match: Match, olds: Mapping[str, Result], news: Mapping[str, Result]
) -> dict[str, str]:
    """New label -> old label for matched results whose label changed, so that a renamed
    label, and every `\\ref` to it, does not count as an edit."""
    out = {}
    for pair in match.pairs:
        before, after = olds[pair.old].labels, news[pair.new].labels
        if before and after and before[0] != after[0]:
            out[after[0]] = before[0]
    return out


def _rename(text: str, relabel: Mapping[str, str]) -> str:
    for new_label, old_label in relabel.items():
        text = text.replace("{" + new_label + "}", "{" + old_label + "}")
    return text


def estimate(resets: Iterable[Reset], events: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """What the reset work cost last time: the recorded model calls it may repeat, and their
    cost in USD (null when no repeated call recorded a cost). An upper bound: a re-gated result
    whose gate passes the same statement keeps its proof and asks no prover again."""
    resets = list(resets)
    wanted = {r.old_id: SKIPPED_TASKS[r.action] for r in resets}
    calls: dict[str, int] = {r.old_id: 0 for r in resets}
    costs: dict[str, float | None] = {r.old_id: None for r in resets}
    for event in events:
        rid = event.get("result")
        if event.get("type") != "model_call" or rid not in wanted:
            continue
        task = str(event.get("task") or event.get("role") or "")
        if task in wanted[rid]:
            continue
        calls[rid] += 1
        cost = event.get("cost_usd")
        if cost is not None:
            costs[rid] = (costs[rid] or 0.0) + float(cost)
    known = [c for c in costs.values() if c is not None]
    return {
        "model_calls": sum(calls.values()),
        "cost_usd": round(sum(known), 6) if known else None,
        "per_result": {
            r.id: {"model_calls": calls[r.old_id], "cost_usd": costs[r.old_id]} for r in resets
        },
    }


def revision_plan(match: Match, resets: list[Reset], cost: dict[str, Any]) -> dict[str, Any]:
    """The dry-run answer (docs/design.md §10): `reset`, what matching found, the estimate."""
    return {
        "reset": [r.to_json() for r in resets],
        "renumbered": [
            {"id": p.new, "old_id": p.old, "from": p.old_number, "to": p.new_number}
            for p in match.renumbered
        ],
        "added": list(match.added),
        "removed": list(match.removed),
        "moved": list(match.moved),
        "matched": [{"old": p.old, "new": p.new, "by": p.by} for p in match.pairs],
        # added results have no previous cost to go by; they are new work on top
        "estimate": {**cost, "not_estimated": list(match.added)},
    }

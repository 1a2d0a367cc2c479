"""Which result an event of `events.jsonl` names now, across revisions and their undoing.

An event names a result by the id the result had when the event was written. A revision
(`paperlint revise`, a `revision` event) can change ids: an unlabelled result is named by its
number (`lemma:2.2`), which a result inserted above it changes, and the revision carries the
result's records over to its new id (the event's `renamed`, old id -> new id, applied all at
once: `lemma:2.2 -> lemma:2.3` and `lemma:2.3 -> lemma:2.4` swap nothing). An id the revision
`removed` names no result after it; an id it `added` named another result, or none, before it.

An undo (`paperlint revise --undo`, a `revision_undone` event naming the revision's snapshot)
restores the records of before that revision: what was written between the two is about
records that are gone, and the ids written after the undo are those of before the revision.

Pure: events in, names out. Readers that attribute events to results (the validator, the
report, the learning record, a revision's cost estimate) read them through `event_names`,
not the raw `result` field. A `revision` event written before `renamed` existed carries none:
its results kept their ids or were started over under new ones, so reading it as renaming
nothing is what the records say.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, eq=False)  # one revision is itself: its identity keys the caches
class _Revision:
    snapshot: str
    renamed: Mapping[str, str]
    removed: frozenset[str]
    added: frozenset[str]

    def forward(self, rid: str) -> str | None:
        """The id `rid` (before this revision) has after it; None once removed."""
        if rid in self.renamed:
            return self.renamed[rid]
        return None if rid in self.removed else rid


def _revision(event: Mapping[str, Any]) -> _Revision:
    renamed = event.get("renamed")
    pairs = {
        str(old): str(new)
        for old, new in (renamed.items() if isinstance(renamed, Mapping) else ())
        if isinstance(old, str) and isinstance(new, str)
    }
    return _Revision(
        snapshot=str(event.get("snapshot", "")),
        renamed=pairs,
        removed=frozenset(_strings(event.get("removed"))),
        added=frozenset(_strings(event.get("added"))),
    )


def _strings(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


@dataclass(frozen=True)
class EventNames:
    """`now[i]`: the id event i's `result` names in the records as they are now, or None (it
    names no result, or one a revision removed, or it was written between a revision and its
    undo). `latest[i]`: event i was written since the newest revision in effect (all of them
    when there is none), so its ids are the current ones."""

    now: tuple[str | None, ...]
    latest: tuple[bool, ...]
    _stack: tuple[_Revision, ...] = field(default=(), repr=False)

    def former(self, rid: str) -> frozenset[str]:
        """Every id the result now named `rid` had since the oldest revision in effect, `rid`
        included: the names its older records and events may carry."""
        names = {rid}
        current = rid
        for revision in reversed(self._stack):
            if current in revision.added:
                break
            back = [old for old, new in revision.renamed.items() if new == current]
            if back:
                current = back[0]
            elif current in revision.renamed:  # its id went to another result: none before
                break
            names.add(current)
        return frozenset(names)


def event_names(events: Sequence[Mapping[str, Any]]) -> EventNames:
    """The names of `events` now (see the module docstring)."""
    at, stack = _in_effect(events)
    now: list[str | None] = []
    latest: list[bool] = []
    mapped: dict[tuple[_Revision, ...], dict[str, str | None]] = {}
    for event, written in zip(events, at, strict=True):
        latest.append(written == stack)
        rid = event.get("result")
        if not isinstance(rid, str):
            now.append(None)
            continue
        cache = mapped.setdefault(written, {})
        if rid not in cache:
            cache[rid] = _now(rid, written, stack)
        now.append(cache[rid])
    return EventNames(tuple(now), tuple(latest), stack)


def names_then(events: Sequence[Mapping[str, Any]], index: int, ids: list[str]) -> list[str | None]:
    """What each of `ids`, written with event `index` (a record that names results but is no
    event's `result`: the convergence review's flags), names now; None as in `event_names`."""
    at, stack = _in_effect(events)
    return [_now(rid, at[index], stack) for rid in ids]


def _in_effect(
    events: Sequence[Mapping[str, Any]],
) -> tuple[list[tuple[_Revision, ...]], tuple[_Revision, ...]]:
    """The revisions in effect when each event was written, and at the end."""
    stack: tuple[_Revision, ...] = ()
    at: list[tuple[_Revision, ...]] = []
    for event in events:
        kind = event.get("type")
        if kind == "revision":
            stack = (*stack, _revision(event))
        elif kind == "revision_undone" and stack and stack[-1].snapshot == event.get("snapshot"):
            stack = stack[:-1]
        at.append(stack)
    return at, stack


def _now(rid: str, written: tuple[_Revision, ...], stack: tuple[_Revision, ...]) -> str | None:
    """The id `rid`, written under the revisions `written`, has under `stack`: followed
    through the revisions since; None if one of those written was undone since, or a
    revision since removed it."""
    if stack[: len(written)] != written:
        return None
    name: str | None = rid
    for revision in stack[len(written) :]:
        name = revision.forward(name) if name is not None else None
    return name


def with_names_now(events: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """`events` with each `result` field the id it names now (None where it names none now,
    see `EventNames.now`); events without one are copied as they are."""
    names = event_names(events)
    return [
        {**event, "result": name} if "result" in event else dict(event)
        for event, name in zip(events, names.now, strict=True)
    ]

"""The journal: the event log with sequence numbers, timestamps, the running spend and the
failpoint. Every event of a check goes through one (`emit`), from the engine, the model edge,
the Lean edge and `revise` alike.

The spend is read from the log once and then kept up to date from the events emitted, so
planning does not re-read the whole log before every action. Charges stay charged: a resume
never refunds what an earlier run spent.
"""

from __future__ import annotations

import datetime as _dt
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from paperlint.records.events import BaseEvent
from paperlint.records.failpoint import maybe_die
from paperlint.records.spend import SPEND_FILE, Spend, read_floor, write_floor
from paperlint.store import EventLog

SPENDING = frozenset({"action_started", "charge", "model_call"})
"""The events that change the spend (`Tally.add`)."""


def now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="milliseconds")


@dataclass
class Tally:
    """The spend an event stream records: calls charged (or answered, if more) and cost."""

    calls: int = 0
    model_calls: int = 0
    cost: float = 0.0

    def add(self, event: Mapping[str, Any]) -> None:
        kind = event.get("type")
        if kind == "action_started":
            self.calls += int(event.get("charge", {}).get("calls", 0))
        elif kind == "charge":
            self.calls += int(event.get("calls", 0))
        elif kind == "model_call":
            self.model_calls += 1
            self.cost += float(event.get("cost_usd") or 0.0)

    def spend(self) -> Spend:
        return Spend(calls=max(self.calls, self.model_calls), cost_usd=self.cost)


class Journal:
    """Events of one check, appended to `events.jsonl` (or, with no log, kept in `kept`)."""

    def __init__(self, log: EventLog | None, *, spent: Spend | None = None) -> None:
        self.log = log
        self.seq = 0
        self._start = spent or Spend()
        self._tally = Tally()
        self.kept: list[BaseEvent] = []
        """With no log (an action in a Ray task): the events, in order, for the driver."""
        self.lock = threading.RLock()
        """Held for every append; actions running in parallel also hold it from a budget
        check to the charge it allows, so two of them never spend the same last call."""
        for event in log.read() if log is not None else ():
            self.seq += 1
            self._tally.add(event)
        self._floor = log.path.parent / SPEND_FILE if log is not None else None
        """`spend.json` beside the log: the spend survives the log's loss (`records.spend`)."""
        if self._floor is not None:
            # What the floor holds beyond what the log still shows (a deleted or shortened
            # log) is spent all the same.
            floor, logged = read_floor(self._floor), self._tally.spend()
            missing = Spend(
                calls=max(0, floor.calls - logged.calls),
                cost_usd=max(0.0, floor.cost_usd - logged.cost_usd),
            )
            self._start = Spend(
                calls=self._start.calls + missing.calls,
                cost_usd=self._start.cost_usd + missing.cost_usd,
            )

    def emit(self, event: BaseEvent) -> None:
        self.emit_all([event])

    def emit_all(self, events: Sequence[BaseEvent]) -> None:
        """Append `events` in order, as `emit` appends each, in one write and one fsync (the
        events a Ray action emitted, which reach the driver together)."""
        if not events:
            return
        datas = [event.as_event() for event in events]
        with self.lock:
            for data in datas:
                self._tally.add(data)
            if self.log is None:
                self.kept.extend(events)
                return
            stamped = []
            for data in datas:
                self.seq += 1
                stamped.append({"seq": self.seq, "ts": now(), **data})
            count = self.log.append_all(stamped)
            if self._floor is not None and any(d.get("type") in SPENDING for d in datas):
                write_floor(self._floor, self.spend)
            for at in range(count - len(stamped) + 1, count + 1):
                maybe_die(at, self.log.path.parent)

    def begin(self, spent: Spend) -> None:
        """A journal with no log that serves one action after another (a Ray action actor's):
        forget the events kept so far and count the spend from `spent`, where the run is now."""
        assert self.log is None, "a journal with a log counts its own spend"
        with self.lock:
            self._start = spent
            self._tally = Tally()
            self.kept = []

    @property
    def spend(self) -> Spend:
        with self.lock:
            own = self._tally.spend()
        return Spend(
            calls=self._start.calls + own.calls, cost_usd=self._start.cost_usd + own.cost_usd
        )


def spend_of(events: Iterable[Mapping[str, Any]]) -> Spend:
    """The spend an event log records (read-only callers: status, estimates)."""
    tally = Tally()
    for event in events:
        tally.add(event)
    return tally.spend()

"""Crash-test hooks, set by `PAPERLINT_FAILPOINT` (docs/design.md §10); unset, they do nothing.

- `after-event:N`: die right after the N-th event is written (of events appended together, a
  Ray action's, after the append that writes it: a kill lands between appends). Crash tests
  kill a run at every event index and show that `resume` ends where an uninterrupted run
  ends. `os._exit` skips every cleanup on purpose, like a power cut.
- `snapshot-events:DIR`: after each event N is written, copy the workspace to `DIR/N`, and
  go on. Called under the journal's lock, where `after-event:N` would die, and copied with
  every workspace write held back (`paperlint.store.GATE`), so `DIR/N` is what a kill after
  event N leaves on disk: with one action at a time (`--jobs 1`) the very same state
  (tests/engine/test_crash_resume.py compares them at its sampled indices), with several in
  flight one of the states a kill in that interval can leave. One run then stands in for the
  prefix of every kill of a crash sweep.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from paperlint.store import GATE

_DIE = re.compile(r"^after-event:(\d+)$")
_SNAPSHOT = re.compile(r"^snapshot-events:(/.+)$")


def _spec() -> str:
    return os.environ.get("PAPERLINT_FAILPOINT", "").strip()


def failpoint_event() -> int | None:
    match = _DIE.match(_spec())
    return int(match.group(1)) if match else None


def snapshot_dir() -> Path | None:
    match = _SNAPSHOT.match(_spec())
    return Path(match.group(1)) if match else None


def maybe_die(event_count: int, workspace: Path | None = None) -> None:
    spec = _spec()
    if not spec:
        return  # no hook set: the only case outside the crash tests
    target = failpoint_event()
    if target is not None and event_count == target:
        os._exit(77)
    into = snapshot_dir()
    if into is not None and workspace is not None:
        with GATE.frozen():
            shutil.copytree(workspace, into / str(event_count), symlinks=True)

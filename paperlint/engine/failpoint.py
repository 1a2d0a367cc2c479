"""`PAPERLINT_FAILPOINT=after-event:N`: die right after the N-th event is written (design §10).

Crash tests kill a run at every event index and show that `resume` ends where an
uninterrupted run ends. `os._exit` skips every cleanup on purpose, like a power cut.
"""

from __future__ import annotations

import os
import re

_SPEC = re.compile(r"^after-event:(\d+)$")


def failpoint_event() -> int | None:
    spec = os.environ.get("PAPERLINT_FAILPOINT", "").strip()
    match = _SPEC.match(spec)
    return int(match.group(1)) if match else None


def maybe_die(event_count: int) -> None:
    target = failpoint_event()
    if target is not None and event_count == target:
        os._exit(77)

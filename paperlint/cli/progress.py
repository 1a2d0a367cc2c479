"""Progress of a long check: one live status line on a terminal, plain lines otherwise.

The line shows the action just started (and, with `--jobs N`, how many are in flight), the
verdict-bearing results done / total, elapsed time, the spend so far and an ETA from the pace
so far. On a terminal it is redrawn in place (`\\r`, erase line) and cut to the terminal's
width. Redirected to a file or a CI log, each action is one plain line with the same facts, so
logs stay readable and greppable, and the last line says `[n/n] finished` once every result
has its verdict.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from typing import IO

# (model calls, USD) so far; read at most once a second (it may read the event log)
SpendSource = Callable[[], tuple[int, float]]


def format_seconds(seconds: float) -> str:
    seconds = max(0, int(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def status_text(
    action: str,
    *,
    done: int,
    total: int,
    elapsed: float,
    spend: tuple[int, float] | None,
    in_flight: int | None = None,
) -> str:
    """The status line's text (pure, so it is tested without a terminal)."""
    parts = [f"[{done}/{total}]", action, f"elapsed {format_seconds(elapsed)}"]
    if in_flight is not None:
        parts.insert(1, f"{in_flight} in flight")
    if spend is not None:
        parts.append(f"{spend[0]} calls, ${spend[1]:.2f} known")  # unpriced calls add nothing
    if 0 < done < total:
        parts.append(f"ETA {format_seconds(elapsed / done * (total - done))}")
    return " · ".join(parts)


class StatusLine:
    def __init__(
        self,
        stream: IO[str],
        *,
        spend: SpendSource | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stream = stream
        self.live = bool(getattr(stream, "isatty", lambda: False)())
        self._spend_source = spend
        self._clock = clock
        self._start = clock()
        self._spend: tuple[int, float] | None = None
        self._read_at = float("-inf")

    def _current_spend(self) -> tuple[int, float] | None:
        if self._spend_source is None:
            return None
        now = self._clock()
        if now - self._read_at >= 1.0:
            self._spend, self._read_at = self._spend_source(), now
        return self._spend

    def update(self, action: str, *, done: int, total: int, in_flight: int | None = None) -> None:
        elapsed = self._clock() - self._start
        text = status_text(
            action,
            done=done,
            total=total,
            elapsed=elapsed,
            spend=self._current_spend(),
            in_flight=in_flight,
        )
        if not self.live:
            self.stream.write(text + "\n")
            self.stream.flush()
            return
        width = shutil.get_terminal_size((100, 20)).columns - 1
        self.stream.write("\r\033[K" + text[:width])
        self.stream.flush()

    def finish(self, *, done: int, total: int) -> None:
        """The run ended: on a terminal the live line is cleared; in a log a last line says
        how far it got (`[n/n] finished` when every result has its verdict)."""
        if self.live:
            self.stream.write("\r\033[K")
            self.stream.flush()
            return
        self._read_at = float("-inf")  # the final spend, read now
        word = "finished" if done == total else "stopped"
        self.update(word, done=done, total=total)

"""Lean verifiers for actions that run in parallel: a pool of warm workers, one process each.

Every warm REPL holds Mathlib in memory, so a run holds as many workers as it runs actions at
once (`check --jobs N`), each with its own environment cache. An action leases one worker for
its whole length and gives it back. A worker whose REPL died during the action (an answer with
`dead_server`, or an exception out of it) is closed and dropped, the next lease starts a fresh
one, and the lease says so: the engine discards that action's outcome and plans it again, so
an action is never lost to a dead worker.

A verifier that answers from a recording is shared by every action (reads only); any other
single verifier handed in (fixture authoring, tests) is shared under a lock, one call at a
time, since nothing says it is safe to call from two threads.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar

from paperlint.lean.elaborated import Elaboration
from paperlint.lean.verifier import (
    AxiomReport,
    FailureCode,
    FinalCheck,
    LeanCheck,
    LeanContext,
    RawAnswer,
    Verifier,
)

if TYPE_CHECKING:
    from paperlint.lean.modules import CheckJob
    from paperlint.lean.trusted import TrustedRun

log = logging.getLogger(__name__)
T = TypeVar("T")


class Pool(Protocol):
    def lease(self) -> AbstractContextManager[Leased]:
        """One worker for one action; `lost` on the lease: it died under the action."""
        ...

    def close(self) -> None: ...


@dataclass
class Leased(Verifier):
    """A worker as an action sees it: every answer passes through, deaths are noted."""

    inner: Verifier
    lost: bool = False
    is_replay: bool = field(init=False)
    thread_safe: bool = field(init=False)

    def __post_init__(self) -> None:
        self.is_replay = self.inner.is_replay
        self.thread_safe = self.inner.thread_safe

    def _note(self, code: FailureCode | None) -> None:
        if code is FailureCode.DEAD_SERVER:
            self.lost = True

    def check(self, context: LeanContext, candidate: str, *, timeout_s: float) -> LeanCheck:
        answer = self._guard(lambda: self.inner.check(context, candidate, timeout_s=timeout_s))
        self._note(answer.code)
        return answer

    def print_axioms(
        self, context: LeanContext, names: Sequence[str], *, timeout_s: float
    ) -> AxiomReport:
        answer = self._guard(lambda: self.inner.print_axioms(context, names, timeout_s=timeout_s))
        self._note(answer.code)
        return answer

    def final_check(self, file: Path, names: Sequence[str], *, timeout_s: float) -> FinalCheck:
        answer = self._guard(lambda: self.inner.final_check(file, names, timeout_s=timeout_s))
        self._note(answer.code)
        return answer

    def _guard(self, call: Callable[[], T]) -> T:
        try:
            return call()
        except (ConnectionAbortedError, BrokenPipeError, ChildProcessError, EOFError):
            self.lost = True
            raise

    def elaborate_statements(
        self,
        context: LeanContext,
        names: Sequence[str],
        *,
        timeout_s: float,
        declaration: str = "",
    ) -> dict[str, Elaboration | None] | None:
        return self._guard(
            lambda: self.inner.elaborate_statements(
                context, names, timeout_s=timeout_s, declaration=declaration
            )
        )

    def command(
        self, context: LeanContext, cmd: str, *, timeout_s: float, all_tactics: bool = False
    ) -> RawAnswer | LeanCheck:
        answer = self._guard(
            lambda: self.inner.command(context, cmd, timeout_s=timeout_s, all_tactics=all_tactics)
        )
        if isinstance(answer, LeanCheck):
            self._note(answer.code)
        return answer

    def trusted_check(self, job: CheckJob, *, timeout_s: float) -> TrustedRun:
        answer = self._guard(lambda: self.inner.trusted_check(job, timeout_s=timeout_s))
        self._note(answer.code)
        return answer

    def close(self) -> None:
        return None  # the pool closes workers, never an action


class VerifierPool:
    """Up to `size` warm workers made by `make`, started lazily, one per action in flight."""

    def __init__(
        self,
        make: Callable[[], Verifier],
        size: int,
        *,
        first: Verifier | None = None,
        on_replace: Callable[[str], None] | None = None,
    ) -> None:
        self._make = make
        self._size = max(1, size)
        self._idle: list[Verifier] = [first] if first is not None else []
        self._started = len(self._idle)
        self._cond = threading.Condition()
        self._closed = False
        self.on_replace = on_replace
        self.replaced = 0

    @contextmanager
    def lease(self) -> Iterator[Leased]:
        worker = self._take()
        watched = Leased(worker)
        try:
            yield watched
        finally:
            self._give_back(worker, lost=watched.lost)

    def _take(self) -> Verifier:
        with self._cond:
            while not self._idle and self._started >= self._size:
                self._cond.wait()
            if self._idle:
                return self._idle.pop()
            self._started += 1
        try:
            return self._make()  # outside the lock: starting a REPL takes seconds
        except BaseException:
            with self._cond:
                self._started -= 1
                self._cond.notify()
            raise

    def _give_back(self, worker: Verifier, *, lost: bool) -> None:
        if lost:
            log.warning("a Lean worker died; it is replaced and its action planned again")
            _close_quietly(worker)
            with self._cond:
                self._started -= 1
                self.replaced += 1
                self._cond.notify()
            if self.on_replace is not None:
                self.on_replace("worker died during an action; replaced")
            return
        with self._cond:
            if self._closed:
                _close_quietly(worker)
            else:
                self._idle.append(worker)
            self._cond.notify()

    def close(self) -> None:
        with self._cond:
            self._closed = True
            idle, self._idle = self._idle, []
        for worker in idle:
            _close_quietly(worker)


class SharedVerifier:
    """One verifier for every action: as is when it only reads a recording, else one call at a
    time under a lock."""

    def __init__(self, verifier: Verifier) -> None:
        self.verifier = verifier
        self._lock: threading.Lock | None = None if _reads_only(verifier) else threading.Lock()

    @contextmanager
    def lease(self) -> Iterator[Leased]:
        if self._lock is None:
            yield Leased(self.verifier)
            return
        with self._lock:
            yield Leased(self.verifier)

    def close(self) -> None:
        return None  # the run closes its own verifier


def _reads_only(verifier: Verifier) -> bool:
    """Declared safe to call from several threads at once (a replay, the no-Lean stand-in)."""
    return verifier.thread_safe


def _close_quietly(worker: Verifier) -> None:
    try:
        worker.close()
    except Exception:  # a dead REPL may fail to close; it is gone either way
        log.debug("closing a Lean worker failed", exc_info=True)

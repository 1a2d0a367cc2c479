"""Atomic writes, a single-writer lock and the append-only event log: the one place a file of
ours is written (records, recordings, the library), below every package that writes.

Every record write in paperlint goes through `write_record` (or the two lower-level helpers
below it): a temporary file in the same folder, fsync, then `os.replace`. A crash at any instant
leaves either the old file or the new one, never a torn one.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from paperlint.errors import InputError, StateError
from paperlint.secrets import scrub, scrub_bytes

log = logging.getLogger(__name__)

M = TypeVar("M", bound=BaseModel)


class _WriteGate:
    """Every file operation below holds the gate shared; `frozen()` holds it alone, so what
    is on disk meanwhile is what it was between two operations: the crash tests copy a
    workspace so while other actions are in flight (`snapshot-events`, records/failpoint.py).
    Nothing else takes it alone; an operation never waits for anything while it holds it."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._writers = 0
        self._frozen = False

    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        with self._cond:
            while self._frozen:
                self._cond.wait()
            self._writers += 1
        try:
            yield
        finally:
            with self._cond:
                self._writers -= 1
                if not self._writers:
                    self._cond.notify_all()

    @contextlib.contextmanager
    def frozen(self) -> Iterator[None]:
        with self._cond:
            while self._frozen:
                self._cond.wait()
            self._frozen = True
            while self._writers:
                self._cond.wait()
        try:
            yield
        finally:
            with self._cond:
                self._frozen = False
                self._cond.notify_all()


GATE = _WriteGate()


def write_bytes_atomic(path: Path, data: bytes, *, durable: bool = True) -> None:
    """`durable=False`: atomic against a crash of this process, not of the machine (no
    fsync: for a file rewritten on every request, `records.spend`'s floor)."""
    with GATE.writing():
        _write_bytes_atomic(path, scrub_bytes(data), durable=durable)  # no API key is written


def _write_bytes_atomic(path: Path, data: bytes, *, durable: bool = True) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        # Ctrl-C or a full disk must not leave a stray temp file beside the record.
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if durable:
        _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some filesystems refuse fsync on a directory; the rename is still atomic
    finally:
        os.close(fd)


def write_text_atomic(path: Path, text: str) -> None:
    write_bytes_atomic(path, text.encode("utf-8"))


def append_line(path: Path, line: str) -> None:
    """Append whole lines (`line`, which may hold several; its last newline added here) and
    fsync them: a crash keeps every line written before, and at worst a torn last line, which
    readers skip. They go out in one `write` on an `O_APPEND` descriptor, so lines appended at
    once by several processes (Ray actors and the driver recording one run) land whole, one
    after another."""
    data = (scrub(line) + "\n").encode("utf-8")  # no API key is ever written
    with GATE.writing():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
        try:
            written = os.write(fd, data)
            while written < len(data):  # a short write (a signal, a full disk): finish it
                written += os.write(fd, data[written:])
            os.fsync(fd)
        finally:
            os.close(fd)


def remove_file(path: Path) -> None:
    """Remove a file if it is there (under the gate, like a write)."""
    with GATE.writing():
        path.unlink(missing_ok=True)


def write_json_atomic(path: Path, data: Any) -> None:
    text = json.dumps(data, indent=2, ensure_ascii=False, sort_keys=False) + "\n"
    write_text_atomic(path, text)


def write_record(path: Path, record: BaseModel) -> None:
    """Write a pydantic record as JSON, atomically. The record carries its own `schema`.

    pydantic's own serialiser writes the same JSON as `json.dumps(indent=2)` of the dumped
    dict at a tenth of the cost (the stdlib's indenting encoder is pure Python); only small
    floats are spelt differently (`0.00001` for `1e-05`), the same number to every reader."""
    write_text_atomic(path, record.model_dump_json(indent=2, by_alias=True) + "\n")


def read_record(path: Path, model: type[M]) -> M:
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise StateError(f"{path}: record not found") from exc
    try:
        return model.model_validate_json(raw)
    except ValidationError as exc:
        raise StateError(f"{path}: not a valid {model.__name__} record: {exc}") from exc


class WorkspaceLock:
    """One writer per workspace: an `fcntl.flock` on `.lock`, held by the running process.

    The kernel drops the lock when its holder exits however it exits, so a killed run never
    blocks `resume`, and a running one cannot be overtaken (a pid file could be, once its pid
    was reused). The file holds the owner's pid for people reading it.
    """

    def __init__(self, folder: Path) -> None:
        self.path = folder / ".lock"
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> None:
        if self._fd is not None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        for _ in range(5):
            fd = os.open(self.path, os.O_CREAT | os.O_RDWR, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise StateError(
                    f"{self.path.parent}: another paperlint process is working in this folder "
                    f"(it holds {self.path}); wait for it to finish"
                ) from None
            if self._same_file(fd):
                os.ftruncate(fd, 0)
                os.write(fd, str(os.getpid()).encode())
                self._fd = fd
                return
            os.close(fd)  # the holder released and removed it meanwhile: take the new one
        raise StateError(f"{self.path}: could not take the workspace lock")

    def _same_file(self, fd: int) -> bool:
        try:
            return os.path.samestat(os.fstat(fd), os.stat(self.path))
        except FileNotFoundError:
            return False

    def release(self) -> None:
        if self._fd is None:
            return
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()  # before unlocking, so no one locks a file about to vanish
        os.close(self._fd)
        self._fd = None

    def __enter__(self) -> WorkspaceLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


class EventLog:
    """Append-only JSON lines. Each line is written whole, flushed and fsynced."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._count: int | None = None

    def append(self, event: dict[str, Any]) -> int:
        """Append one event and return how many events the log now holds."""
        return self.append_all([event])

    def append_all(self, events: list[dict[str, Any]]) -> int:
        """Append `events`, one line each, in one write and one fsync (a crash keeps a prefix
        of them, at worst with a torn last line); return how many the log now holds."""
        if self._count is None:
            self._drop_torn_tail()
            self._count = self.count()
        if not events:
            return self._count  # nothing to write (not even a blank line)
        append_line(
            self.path, "\n".join(json.dumps(e, ensure_ascii=False, sort_keys=True) for e in events)
        )
        self._count += len(events)
        return self._count

    def _drop_torn_tail(self) -> None:
        """A crash mid-write leaves a line without its newline; cut it before appending."""
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            keep = data[: data.rfind(b"\n") + 1]
            log.warning("%s: dropping a torn last event line", self.path)
            write_bytes_atomic(self.path, keep)

    def count(self) -> int:
        return sum(1 for _ in self.read())

    def read(self) -> Iterator[dict[str, Any]]:
        """Yield complete events. A torn last line (a crash mid-write) is skipped with a warning."""
        if not self.path.exists():
            return
        with open(self.path, encoding="utf-8") as handle:
            lines = handle.readlines()
        for number, line in enumerate(lines, 1):
            if not line.endswith("\n"):
                log.warning("%s:%d: ignoring a torn last event line", self.path, number)
                continue
            try:
                yield json.loads(line)
            except json.JSONDecodeError:
                log.warning("%s:%d: ignoring an unreadable event line", self.path, number)


def jsonl_rows(path: Path, what: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) of each line of a recording (`lean.jsonl`, `transcript.jsonl`),
    blank lines and `{"kind": "comment"}` lines skipped; a line that is no JSON object is an
    InputError naming the file and line. A missing file has no rows."""
    if not path.exists():
        return
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError as exc:
            raise InputError(f"unreadable {what}: {exc}", path=path, line=number) from exc
        if not isinstance(row, dict):
            raise InputError(f"unreadable {what}: not a JSON object", path=path, line=number)
        if row.get("kind") != "comment":
            yield number, row

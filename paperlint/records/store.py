"""Atomic record writes, a single-writer lock and the append-only event log.

Every record write in paperlint goes through `write_record` (or the two lower-level helpers
below it): a temporary file in the same folder, fsync, then `os.replace`. A crash at any instant
leaves either the old file or the new one, never a torn one.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from paperlint.errors import StateError

log = logging.getLogger(__name__)

M = TypeVar("M", bound=BaseModel)


def write_bytes_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        # Ctrl-C or a full disk must not leave a stray temp file beside the record.
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
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


def write_json_atomic(path: Path, data: Any) -> None:
    text = json.dumps(data, indent=2, ensure_ascii=False, sort_keys=False) + "\n"
    write_text_atomic(path, text)


def write_record(path: Path, record: BaseModel) -> None:
    """Write a pydantic record as JSON, atomically. The record carries its own `schema`."""
    write_json_atomic(path, record.model_dump(mode="json", by_alias=True))


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
    """One writer per workspace: an exclusive lock file holding the owner's pid.

    A lock whose pid no longer runs is stale and is taken over, so a killed run never
    blocks `resume`.
    """

    def __init__(self, folder: Path) -> None:
        self.path = folder / ".lock"
        self._held = False

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        for _ in range(2):
            try:
                fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                if self._is_stale():
                    with contextlib.suppress(FileNotFoundError):
                        self.path.unlink()
                    continue
                raise StateError(
                    f"{self.path.parent}: another paperlint process holds the lock "
                    f"({self.path}); wait for it to finish, or delete the lock file if "
                    "no paperlint process is running"
                ) from None
            with os.fdopen(fd, "w") as handle:
                handle.write(str(os.getpid()))
            self._held = True
            return
        raise StateError(f"{self.path}: could not take the workspace lock")

    def _is_stale(self) -> bool:
        try:
            pid = int(self.path.read_text().strip() or "0")
        except (OSError, ValueError):
            return True
        if pid <= 0:
            return True
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            return False
        return False

    def release(self) -> None:
        if self._held:
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()
            self._held = False

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
        if self._count is None:
            self._drop_torn_tail()
            self._count = self.count()
        line = json.dumps(event, ensure_ascii=False, sort_keys=True) + "\n"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(line)
            handle.flush()
            os.fsync(handle.fileno())
        self._count += 1
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

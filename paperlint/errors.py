"""Domain exceptions. Each message says what went wrong and what to do next."""

from __future__ import annotations

import shlex
from pathlib import Path


def typed(*words: str | Path) -> str:
    """A command as the user types it, in backticks, each word quoted for a POSIX shell where it
    needs it (`paperlint resume 'my paper.paperlint'`), so a hint pasted into a shell runs."""
    return "`" + " ".join(shlex.quote(str(word)) for word in words) + "`"


class PaperlintError(Exception):
    """Base of every error paperlint reports without a traceback."""

    hint: str | None = None


class InputError(PaperlintError):
    """Bad user input: a path, a paper, a config file. Exit code 2."""

    def __init__(
        self,
        message: str,
        *,
        path: Path | str | None = None,
        line: int | None = None,
        hint: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = str(path) if path is not None else None
        self.line = line
        self.hint = hint

    def __str__(self) -> str:
        where = ""
        if self.path is not None:
            where = f"{self.path}:{self.line}: " if self.line is not None else f"{self.path}: "
        text = f"{where}error: {self.message}"
        return f"{text}\n  hint: {self.hint}" if self.hint else text


class LeanSetupError(PaperlintError):
    """The Lean toolchain, project or REPL is missing or broken."""


class ModelError(PaperlintError):
    """A language model could not be reached or kept answering invalid output."""


class StateError(PaperlintError):
    """A check workspace is locked, corrupt or from an incompatible version."""


UPGRADE_HINT = "upgrade paperlint (`pip install --upgrade paperlint`), or start again with --fresh"


def refuse_newer_schema(found: object, known: tuple[str, ...], *, path: Path | str | None) -> None:
    """Raise an InputError (exit 2) when `found` is a later version of a schema family this
    paperlint knows (`paperlint.results/9` where it reads up to `/2`): a newer paperlint made
    the record, and only an upgrade reads it."""
    if not isinstance(found, str) or "/" not in found:
        return
    family, _, version = found.rpartition("/")
    ours = [k.rpartition("/")[2] for k in known if k.rpartition("/")[0] == family]
    newest = max((int(v) for v in ours if v.isdigit()), default=None)
    if newest is None or not version.isdigit() or int(version) <= newest:
        return
    raise InputError(
        f"made by a newer paperlint ({found}; this one reads up to {family}/{newest})",
        path=path,
        hint=UPGRADE_HINT,
    )

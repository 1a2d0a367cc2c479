"""Domain exceptions. Each message says what went wrong and what to do next."""

from __future__ import annotations

from pathlib import Path


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

"""What the commands share that needs no typer (`paperlint preflight` starts without it):
the output formats, what a paper is, and colour on a terminal.

- A paper must be a `.tex`/`.ltx` file, a PDF, or a folder holding one: any other file is
  refused with exit 2 before anything is written.
- Colour only on a terminal, never when `NO_COLOR` is set (https://no-color.org).
"""

from __future__ import annotations

import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import IO

from paperlint.errors import InputError

PAPER_SUFFIXES = (".tex", ".ltx", ".latex", ".pdf")


class Format(StrEnum):
    TEXT = "text"
    JSON = "json"


def require_paper(path: Path) -> Path:
    """Refuse what is not a paper (exit 2), naming what is accepted."""
    if not path.exists():
        raise InputError("no such file or folder", path=path, hint="pass the paper's .tex file")
    if path.is_dir():
        if not any(p.suffix.lower() in PAPER_SUFFIXES for p in path.rglob("*") if p.is_file()):
            raise InputError(
                "no .tex or .pdf file in this folder", path=path, hint="pass the paper's folder"
            )
        return path
    if path.suffix.lower() not in PAPER_SUFFIXES:
        raise InputError(
            f"not a paper: {path.suffix or 'no suffix'}",
            path=path,
            hint="pass a .tex file, a PDF, or the paper's folder (with --root for its main file)",
        )
    return path


def colour(stream: IO[str] | None = None) -> bool:
    """Colour on a terminal unless NO_COLOR is set (to anything) or TERM is dumb."""
    stream = stream or sys.stdout
    if os.environ.get("NO_COLOR", "") != "" or os.environ.get("TERM") == "dumb":
        return False
    return bool(getattr(stream, "isatty", lambda: False)())


_STYLES = {
    "error": "\033[31;1m",
    "warning": "\033[33m",
    "info": "\033[36m",
    "ok": "\033[32m",
    "dim": "\033[2m",
}


def paint(text: str, style: str, *, enabled: bool) -> str:
    return f"{_STYLES[style]}{text}\033[0m" if enabled and style in _STYLES else text

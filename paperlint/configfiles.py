"""Which config files a run reads (`paperlint.config` reads and validates them).

Kept apart from `paperlint.config`, whose models import pydantic, so a command that needs
a config only when a file exists (`paperlint preflight` in a folder without one) finds that
out without it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from pathlib import Path

CONFIG_FILE = "paperlint.toml"
PYPROJECT = "pyproject.toml"

WORKSPACE_MARKER = ".paperlint-workspace"
"""Written first into a new work folder (`paperlint.engine.check.claim_folder`): a check stopped
before its first record (a ^C in the first seconds) still leaves a folder `check --fresh`
recognises as its own, and config discovery knows the `paperlint.toml` beside it for the run's
record of its config (with `[run]` and `[versions]`), not a config to read."""


def user_config_file(environ: Mapping[str, str] | None = None) -> Path:
    """`$PAPERLINT_CONFIG_DIR/paperlint.toml`, else `$XDG_CONFIG_HOME/paperlint/paperlint.toml`,
    else `~/.config/paperlint/paperlint.toml` (it need not exist)."""
    env = os.environ if environ is None else environ
    folder = env.get("PAPERLINT_CONFIG_DIR")
    if folder:
        return Path(folder) / CONFIG_FILE
    base = env.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "paperlint" / CONFIG_FILE


def config_files(explicit: Path | None, *, start: Path) -> tuple[Path, ...]:
    """The files a run reads, lowest precedence first: `explicit` alone when given; else the
    user file (when it exists), then the project file found from `start` (when one is)."""
    if explicit is not None:
        return (explicit,)
    user = user_config_file()
    project = find_config_file(start)
    found = [user] if user.is_file() else []
    if project is not None and (not found or project.resolve() != user.resolve()):
        found.append(project)
    return tuple(found)


def find_config_file(start: Path) -> Path | None:
    """The nearest `paperlint.toml`, or `pyproject.toml` with `[tool.paperlint]`, above start.

    The walk stops at a repository root (a folder holding `.git`), as black's does, so a
    config in a parent project cannot leak into an unrelated paper. It passes over a check's
    workspace (`WORKSPACE_MARKER`): from `paper.paperlint/source/` it finds the paper's own
    config, as a check of the paper did, not the workspace's record of it.
    """
    for folder in _folders_up(start.resolve()):
        if is_workspace_folder(folder):
            continue
        candidate = folder / CONFIG_FILE
        if candidate.is_file():
            return candidate
        pyproject = folder / PYPROJECT
        if pyproject.is_file() and _has_paperlint_table(pyproject):
            return pyproject
        if (folder / ".git").exists():
            return None
    return None


def is_workspace_folder(folder: Path) -> bool:
    """Whether `folder` is a check's workspace (its `paperlint.toml` is the run's record)."""
    return (folder / WORKSPACE_MARKER).is_file()


def _folders_up(start: Path) -> Iterator[Path]:
    folder = start if start.is_dir() else start.parent
    yield folder
    yield from folder.parents


def _has_paperlint_table(pyproject: Path) -> bool:
    import tomllib  # here: most paper folders hold no pyproject.toml (~3 ms at start-up)

    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False  # someone else's broken pyproject is not our config
    return isinstance(data.get("tool"), dict) and "paperlint" in data["tool"]

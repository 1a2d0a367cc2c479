"""A second kernel: replay the result's module through lean4checker, when setup installed it.

`lake env lean FILE` trusts the elaborator's environment as Lean built it. lean4checker (the
Lean FRO's independent replay of a compiled module's declarations into a fresh environment)
re-checks every declaration of the module with the kernel, so an environment extension or
a meta program that added a declaration without checking it is caught. `paperlint setup`
clones it at the toolchain's tag into the cache and builds it; the final check then compiles
the module to an `.olean` in a scratch folder and runs the checker on it, and records the
outcome in the final check (`FinalCheck.second_kernel`). `validate` requires a passing record
on every verified result once the run claimed one.
"""

from __future__ import annotations

import os
from pathlib import Path

from paperlint.lean.pins import LeanPaths

GIT_URL = "https://github.com/leanprover/lean4checker"
ENV_OVERRIDE = "PAPERLINT_LEAN4CHECKER"
OUTPUT_CHARS = 4000


def checker_dir(paths: LeanPaths) -> Path:
    return paths.cache / "lean4checker"


def checker_binary(paths: LeanPaths) -> Path | None:
    """The lean4checker executable setup built (or `$PAPERLINT_LEAN4CHECKER`), if present."""
    override = os.environ.get(ENV_OVERRIDE)
    candidate = (
        Path(override)
        if override
        else checker_dir(paths) / ".lake" / "build" / "bin" / "lean4checker"
    )
    return candidate if candidate.is_file() and os.access(candidate, os.X_OK) else None


def tag_for(toolchain: str | None) -> str | None:
    """`leanprover/lean4:v4.35.0` → `v4.35.0`, the lean4checker tag for that toolchain."""
    if not toolchain or ":" not in toolchain:
        return None
    return toolchain.rsplit(":", 1)[1]


def compile_command(lake: str, file: Path, olean: Path) -> list[str]:
    return [lake, "env", "lean", "-o", str(olean), str(file)]


def check_command(lake: str, checker: Path, module: str) -> list[str]:
    return [lake, "env", str(checker), module]

"""Options and checks shared by the commands, so every command behaves the same way.

- `--format` is a choice (`text` or `json`) everywhere: an unknown one (`yaml`) is refused
  with exit 2 and the choices, and `--help` lists them.
- The formats, what a paper is, and colour on a terminal: `paperlint.cli.plain` (no typer).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

import typer

from paperlint.cli.boundary import raise_verbosity
from paperlint.cli.plain import Format

# Shared option objects (typer reads them as defaults; one definition, the same everywhere).
FORMAT: Any = typer.Option(Format.TEXT, "--format", help="Output: text or json.")
QUIET: Any = typer.Option(False, "--quiet", "-q", help="Print no progress; only the outcome.")


# The root callback (`paperlint -v CMD`) configured logging before this command's options are
# parsed; `paperlint CMD -v` raises the level the same way.
VERBOSE: Any = typer.Option(
    False, "--verbose", "-v", help="Log progress to stderr.", callback=raise_verbosity
)


class Executor(StrEnum):
    THREADS = "threads"
    RAY = "ray"


JOBS: Any = typer.Option(
    None,
    "--jobs",
    "-j",
    min=1,
    help="Actions at once. Default: the cores, and no more than memory / 5 GB per Lean worker.",
)
EXECUTOR: Any = typer.Option(
    Executor.THREADS, "--executor", help="Where actions run: threads (local) or ray."
)
ADDRESS: Any = typer.Option(
    None, "--address", help="With --executor ray: the cluster to join (default: start one here)."
)


def resolve_jobs(jobs: int | None) -> int:
    if jobs is not None:
        return jobs
    from paperlint.lean.jobs import default_jobs

    return default_jobs()

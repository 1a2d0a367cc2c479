"""How many actions run at once by default: one per core, no more warm Lean workers than
memory holds. Apart from `paperlint.lean.pool` so the CLI resolves
`--jobs` without importing the verifiers (a resume with nothing to do never needs them)."""

from __future__ import annotations

import os

WORKER_FOOTPRINT_MB = 5 * 1024
"""Memory one warm worker holds: `import Mathlib` costs about 5 GB per worker, by leanclient's
comments quoted in docs/lean-notes.md §11.3 (its §3.7, on lean-interact, says "several
GB"; both unverified for our Mathlib pin). `default_jobs` divides the machine's memory by it."""


def machine_memory_mb() -> int | None:
    try:
        pages = os.sysconf("SC_PHYS_PAGES")
        size = os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None
    return int(pages * size // (1024 * 1024)) if pages > 0 and size > 0 else None


def default_jobs(
    cores: int | None = None,
    memory_mb: int | None = None,
    footprint_mb: int = WORKER_FOOTPRINT_MB,
) -> int:
    """Actions at once by default: one per core, and no more warm workers than memory holds."""
    cores = cores if cores is not None else (os.cpu_count() or 1)
    memory_mb = memory_mb if memory_mb is not None else machine_memory_mb()
    by_memory = memory_mb // footprint_mb if memory_mb is not None else cores
    return max(1, min(cores, by_memory))

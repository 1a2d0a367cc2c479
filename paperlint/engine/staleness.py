"""Whether a check's verdicts are about the paper as it is now (#28).

A workspace keeps the source it checked (`source/`, hashed in `inventory.json`). When the
paper's files differ from it, every verdict is about an earlier version: `check` and `resume`
refuse to go on as if nothing happened (run `paperlint revise`), and `status` and the report
mark each result a revision would reset (its statement, proof or a dependency changed) or
drop (`paperlint.revise.staleness`: `revise --dry-run`'s plan). Reads only.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from paperlint.errors import typed
from paperlint.preflight.model import Inventory
from paperlint.records import read_record
from paperlint.records.workspace import Workspace
from paperlint.spec import read_spec


@dataclass(frozen=True)
class Staleness:
    paper: Path
    files: tuple[str, ...] = ()
    """The paper's files that differ from the checked source (relative to its folder)."""
    results: Mapping[str, str] = field(default_factory=dict)
    """Result id (as the workspace names it) -> why its verdict no longer holds."""

    @property
    def stale(self) -> bool:
        return bool(self.files)

    def message(self, ws: Path) -> str:
        shown = ", ".join(self.files[:3]) + (" …" if len(self.files) > 3 else "")
        return f"the paper changed since this check ({shown}); its verdicts are about the old text"

    def hint(self, ws: Path) -> str:
        return (
            f"run {typed('paperlint', 'revise', ws, self.paper)} (it resets only what changed), "
            f"then {typed('paperlint', 'resume', ws)}"
        )


def changed_files(ws: Workspace, paper: Path | None = None) -> tuple[Path, tuple[str, ...]]:
    """The paper (`paper`, else the one the check was run on) and its files whose bytes differ
    from the checked source. A file that is gone is not compared (the paper may have moved)."""
    spec = read_spec(ws.config)
    paper = paper if paper is not None else spec.paper
    inventory = read_record(ws.inventory, Inventory)
    base = paper if paper.is_dir() else paper.parent
    changed = []
    for entry in inventory.files:
        current = base / entry.path
        if current.is_file() and hashlib.sha256(current.read_bytes()).hexdigest() != entry.sha256:
            changed.append(entry.path)
    return paper, tuple(changed)

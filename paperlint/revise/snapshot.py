"""Revision snapshots: a copy of the records and evidence taken before a revision writes
anything, so that `paperlint revise DIR --undo` can put the previous version back."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Final

from paperlint.errors import StateError, typed
from paperlint.records import WorkspaceLock, write_json_atomic
from paperlint.records.events import RevisionUndone
from paperlint.records.journal import Journal
from paperlint.records.revisions import REVISION_FILE, read_revisions
from paperlint.records.workspace import Workspace, open_workspace
from paperlint.store import write_bytes_atomic

SNAPSHOT_MARKER: Final = "snapshot.json"  # written last: a snapshot without it is incomplete
SNAPSHOT_FILES: Final = (
    "results.json",
    "inventory.json",
    "blueprint.json",
    "events.jsonl",
    "paperlint.toml",
    REVISION_FILE,
)
SNAPSHOT_DIRS: Final = ("source", "lean", "audits", "engine")


def take_snapshot(ws: Workspace, stamp: str) -> Path:
    """Copy the records and evidence into `snapshots/revision-<stamp>/`; the marker goes in
    last, so an incomplete copy is never restored."""
    # "revision-": the engine keeps its own end-of-run checkpoints in `snapshots/` too
    target = ws.snapshots / f"revision-{stamp}"
    target.mkdir(parents=True, exist_ok=False)
    for name in SNAPSHOT_FILES:
        if (ws.root / name).is_file():
            shutil.copyfile(ws.root / name, target / name)
    for name in SNAPSHOT_DIRS:
        if (ws.root / name).is_dir():
            shutil.copytree(ws.root / name, target / name)
    write_json_atomic(target / SNAPSHOT_MARKER, {"schema": "paperlint.snapshot/1", "at": stamp})
    return target


def undo_revision(workdir: Path) -> Path:
    """Restore the newest complete snapshot and remove it, so a second undo goes one further
    back. `events.jsonl` stays append-only (spending stays charged): the undo is an event."""
    ws = open_workspace(workdir)
    with WorkspaceLock(ws.root):
        snapshot = latest_snapshot(ws)
        if snapshot is None:
            raise StateError(f"{ws.root}: no snapshot to restore; nothing was revised here")
        for name in SNAPSHOT_FILES:
            if name == "events.jsonl":
                continue
            kept = snapshot / name
            if kept.is_file():
                write_bytes_atomic(ws.root / name, kept.read_bytes())
            elif (ws.root / name).exists():
                (ws.root / name).unlink()
        for name in SNAPSHOT_DIRS:
            shutil.rmtree(ws.root / name, ignore_errors=True)
            if (snapshot / name).is_dir():
                shutil.copytree(snapshot / name, ws.root / name)
        Journal(ws.events()).emit(RevisionUndone(snapshot=ws.rel(snapshot)))
        shutil.rmtree(snapshot)
    return snapshot


def refuse_if_interrupted(ws: Workspace) -> None:
    """A complete snapshot that no revision entry names is a revision that stopped half-way:
    the records may mix two versions, so only an undo is safe."""
    snapshot = latest_snapshot(ws)
    named = {r["snapshot"] for r in read_revisions(ws.root)["revisions"]}
    if snapshot is not None and ws.rel(snapshot) not in named:
        raise StateError(
            f"{ws.root}: a revision was interrupted (snapshot {ws.rel(snapshot)}); "
            f"restore it with {typed('paperlint', 'revise', ws.root, '--undo')}, then revise again"
        )


def latest_snapshot(ws: Workspace) -> Path | None:
    if not ws.snapshots.is_dir():
        return None
    done = [
        p
        for p in ws.snapshots.iterdir()
        if p.name.startswith("revision-") and (p / SNAPSHOT_MARKER).is_file()
    ]
    return max(done, key=lambda p: p.name) if done else None

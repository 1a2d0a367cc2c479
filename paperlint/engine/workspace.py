"""The check workspace (design §3): paths, creation, and the kept copy of the paper."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from paperlint.errors import StateError
from paperlint.records import EventLog, read_record, write_record
from paperlint.records.layout import safe_name
from paperlint.records.results import Results

__all__ = ["safe_name"]  # re-exported for revise; defined in paperlint.records.layout


@dataclass(frozen=True)
class Workspace:
    root: Path

    @property
    def config(self) -> Path:
        return self.root / "paperlint.toml"

    @property
    def source(self) -> Path:
        return self.root / "source"

    @property
    def inventory(self) -> Path:
        return self.root / "inventory.json"

    @property
    def blueprint(self) -> Path:
        return self.root / "blueprint.json"

    @property
    def results(self) -> Path:
        return self.root / "results.json"

    @property
    def events_path(self) -> Path:
        return self.root / "events.jsonl"

    @property
    def audits(self) -> Path:
        return self.root / "audits"

    @property
    def lean(self) -> Path:
        return self.root / "lean"

    @property
    def report(self) -> Path:
        return self.root / "report"

    @property
    def snapshots(self) -> Path:
        return self.root / "snapshots"

    def events(self) -> EventLog:
        return EventLog(self.events_path)

    def audit_dir(self, result_id: str) -> Path:
        return self.audits / safe_name(result_id)

    def rel(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()

    def load_results(self) -> Results:
        return read_record(self.results, Results)

    def is_workspace(self) -> bool:
        return self.results.exists() and self.inventory.exists()


def default_workdir(paper: Path) -> Path:
    base = paper if paper.is_dir() else paper.with_suffix("")
    return base.parent / f"{base.name}.paperlint"


def open_workspace(folder: Path) -> Workspace:
    ws = Workspace(folder)
    if not ws.is_workspace():
        raise StateError(
            f"{folder}: not a paperlint workspace (no results.json/inventory.json); "
            "run `paperlint check PAPER` first"
        )
    return ws


def write_results(ws: Workspace, results: Results) -> None:
    write_record(ws.results, results)

"""`paperlint status`: read-only; each result's stage and verdict, and with `--why` the reason."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from paperlint.engine.staleness import changed_files
from paperlint.engine.steps.reconnect import NOT_MADE
from paperlint.errors import typed
from paperlint.lean.pins import read_toolchain
from paperlint.records.results import ResultRecord, Results, Verdict
from paperlint.records.workspace import Workspace, open_workspace
from paperlint.spec import read_spec


@dataclass(frozen=True)
class StatusRow:
    id: str
    number: str | None
    kind: str
    stage: str
    verdict: str | None
    why: list[str]
    stale: str | None = None
    """Why this verdict is about an earlier version of the paper (None: it is current)."""


def status_rows(
    folder: Path, *, why: bool, stale_results: Mapping[str, str] | None = None
) -> tuple[list[StatusRow], Results, list[str]]:
    """Rows per result, the records, and what is stale for the whole check: a changed paper
    always, the toolchain with `why`. `stale_results` (`revise.staleness`): why each result
    the change makes stale is, shown on its row."""
    ws = open_workspace(folder)
    results = ws.load_results()
    paper, files = changed_files(ws)
    stale = [f"source-changed: {path}" for path in files]
    if not paper.exists():  # moved or renamed: its edits there are not compared
        revise = typed("paperlint", "revise", folder, "NEW_PAPER")
        stale.append(f"paper-gone: {paper} (moved? {revise} checks it where it is now)")
    stale += _toolchain_changed(ws) if why else []
    rows = [
        StatusRow(
            id=r.id,
            number=r.number,
            kind=r.kind,
            stage=r.stage.value,
            verdict=r.verdict.value if r.verdict else None,
            why=_why(r, results) if why else [],
            stale=(stale_results or {}).get(r.id),
        )
        for r in results.results
    ]
    return rows, results, stale


def _why(record: ResultRecord, results: Results) -> list[str]:
    reasons: list[str] = []
    if record.unfinished is not None:
        reasons.append(f"{record.unfinished.reason.value}: {record.unfinished.detail}")
    if record.issue is not None:
        loc = record.issue.location
        reasons.append(f"{record.issue.class_.value} at {loc.file}:{loc.line}")
    for cond in record.conditions:
        if cond.source.result:
            dep = results.get(cond.source.result)
            if dep is not None and dep.verdict is not Verdict.VERIFIED_UNCONDITIONAL:
                reasons.append(f"blocked-by {cond.source.result}")
    # a reconnection Lean did not accept (issue #14): why the clause is still a condition
    reasons += [n for n in record.notes if n.startswith(NOT_MADE)]
    if not record.verdict_bearing and record.verdict is None:
        reasons.append("not verdict-bearing")
    return reasons


def _toolchain_changed(ws: Workspace) -> list[str]:
    """The toolchain of the Lean project the run used (`[lean] project_dir`, else the
    bundled one), when it is another now."""
    spec = read_spec(ws.config)
    recorded = spec.versions.get("lean_toolchain")
    if recorded and read_toolchain(spec.lean.project) != recorded:
        return ["toolchain-changed"]
    return []

"""`paperlint batch PAPERS…`: many papers, each checked in its own workspace, one summary.

Each paper is a whole `check`: its own work folder, lock, records and report, so any one of
them can be resumed, validated or reported on alone. The papers run one after another; within
each, up to `--jobs N` actions run at once on the chosen executor. With Ray the cluster is
joined (or started) once for the whole batch, and its action actors (one per slot) are started
once and serve every paper (`engine.ray_executor`).

`replays=True` serves, for each paper, the replay folder next to it when there is one (the
example fixtures ship theirs: `replay-full/`, else `replay/`); a paper without one runs live,
which without a model or Lean ends honestly `unfinished`, never with a guessed verdict. Each
row says which it was.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from paperlint.engine.executors import RunOptions, ray_cluster
from paperlint.engine.summary import Summary
from paperlint.errors import PaperlintError
from paperlint.exitcodes import ExitCode

if TYPE_CHECKING:
    from paperlint.config import Config

VERDICTS = ("verified_unconditional", "verified_conditional", "issue", "unfinished")


@dataclass(frozen=True)
class BatchRow:
    paper: str
    workspace: str
    replay: bool
    counts: dict[str, int] = field(default_factory=dict)
    exit_code: int = 0
    stop_reason: str | None = None
    error: str | None = None


@dataclass(frozen=True)
class BatchRequest:
    papers: Sequence[Path]
    config_for: Callable[[Path], Config]
    workroot: Path | None = None
    """Each paper's workspace is WORKROOT/<name>; None: PAPER.paperlint/ beside each paper."""
    replays: bool = False
    fresh: bool = False
    run: RunOptions = RunOptions()


REPLAY_FOLDERS = ("replay-full", "replay")
"""Looked for next to a paper, in this order: a revision fixture's `replay/` holds only the
re-done work, and its `replay-full/` a whole check (fixtures/sample-variance-v2/README.md)."""


def replay_beside(paper: Path) -> Path | None:
    base = paper if paper.is_dir() else paper.parent
    for name in REPLAY_FOLDERS:
        if (base / name / "transcript.jsonl").is_file():
            return base / name
    return None


def workspaces(papers: Sequence[Path], workroot: Path | None) -> list[Path]:
    """One folder per paper; names that collide (two `paper.tex`) take their folder's name."""
    from paperlint.records.workspace import default_workdir

    if workroot is None:
        return [default_workdir(p.resolve() if p.is_dir() else p) for p in papers]
    stems = [p.stem if p.is_file() else p.name for p in papers]
    counts = Counter(stems)
    names: list[str] = []
    for paper, stem in zip(papers, stems, strict=True):
        name = stem if counts[stem] == 1 else f"{paper.resolve().parent.name}-{stem}"
        while name in names:
            name += "_"
        names.append(name)
    return [workroot / name for name in names]


def run_batch(
    request: BatchRequest, *, on_paper: Callable[[Path], None] | None = None
) -> list[BatchRow]:
    from paperlint.engine.check import CheckRequest, start_check

    rows: list[BatchRow] = []
    with ray_cluster(request.run):
        for paper, workdir in zip(
            request.papers, workspaces(request.papers, request.workroot), strict=True
        ):
            if on_paper is not None:
                on_paper(paper)
            replay = replay_beside(paper) if request.replays else None
            try:
                summary = start_check(
                    CheckRequest(
                        paper=paper,
                        config=request.config_for(paper),
                        workdir=workdir,
                        replay=replay,
                        fresh=request.fresh,
                        run=request.run,
                    )
                )
            except PaperlintError as exc:
                rows.append(
                    BatchRow(
                        paper=str(paper),
                        workspace=str(workdir),
                        replay=replay is not None,
                        exit_code=int(ExitCode.USAGE),
                        error=str(exc),
                    )
                )
                continue
            rows.append(_row(paper, workdir, summary))
    return rows


def _row(paper: Path, workdir: Path, summary: Summary) -> BatchRow:
    return BatchRow(
        paper=str(paper),
        workspace=str(workdir),
        replay=summary.replay,
        counts=dict(summary.counts),
        exit_code=int(summary.exit_code),
        stop_reason=summary.stop_reason,
    )


def batch_exit_code(rows: Sequence[BatchRow]) -> ExitCode:
    """2 if a paper could not be checked; else as one check over all the results."""
    if any(row.error for row in rows):
        return ExitCode.USAGE
    total: Counter[str] = Counter()
    for row in rows:
        total.update(row.counts)
    return Summary(counts=dict(total)).exit_code


def render_table(rows: Sequence[BatchRow]) -> str:
    head = ["paper", "mode", *(v.replace("verified_", "v_") for v in VERDICTS), "exit", "note"]
    body = []
    for row in rows:
        note = row.error or (f"stopped: {row.stop_reason}" if row.stop_reason else "")
        # a paper not checked has no counts (not zero of each), and its error stays on its row
        counts = (
            ["-"] * len(VERDICTS) if row.error else [str(row.counts.get(v, 0)) for v in VERDICTS]
        )
        body.append(
            [
                row.paper,
                "REPLAY" if row.replay else "live",
                *counts,
                str(row.exit_code),
                "; ".join(part.strip() for part in note.splitlines()),
            ]
        )
    total: Counter[str] = Counter()
    for row in rows:
        total.update(row.counts)
    body.append(
        [
            "total",
            "",
            *(str(total.get(v, 0)) for v in VERDICTS),
            str(int(batch_exit_code(rows))),
            "",
        ]
    )
    widths = [max(len(r[i]) for r in [head, *body]) for i in range(len(head))]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip()
        for r in [head, *body]
    ]
    return "\n".join(lines)

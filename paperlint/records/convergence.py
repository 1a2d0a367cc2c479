"""The final convergence review's records (issue #19): the two reviews, the combined flags, the
state of `convergence.json`, and the rewind of the records it calls for.

`convergence.json` is written atomically before the records are rewound and marked `applied`
after, so a crash in between re-applies the same rewind on `resume` (`was_applied` tells) and
never asks the reviewers twice. The review itself is `paperlint.engine.converge`; combining the
two readings, `paperlint.learning.convergence`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from paperlint.records.files import read_model, write_model
from paperlint.records.outputs import ConvergenceFlag
from paperlint.records.results import Results
from paperlint.records.rewind import rewind
from paperlint.records.slots import sent_back


class ConvergenceReview(BaseModel):
    """One reviewer's reading of the frozen graph."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    model: str
    reviewed: list[str]  # the result ids the reviewer was shown
    flags: list[ConvergenceFlag] = Field(default_factory=list)


class Combined(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    flagged: list[str]  # in document order
    by_both: list[str]  # flagged by both reviewers
    flags: list[ConvergenceFlag]
    regate: list[str]  # flagged results and everything they invalidate, in document order


FILE: Final = "convergence.json"
MARK: Final = "re-gated by the convergence review"


class ConvergenceState(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    status: Literal["asking", "pending", "done", "not_run"]
    """asking: the reviews answered so far (a crash came between them); pending: a provider
    failure or a spent budget stopped it, and `resume` asks again; not_run: it cannot run
    (the reviewers' models, a reviewer's own invalid answer), and no later run asks."""
    reason: str | None = None  # why it did not run, or why it is pending
    reviews: list[ConvergenceReview] = Field(default_factory=list)
    combined: Combined | None = None
    applied: bool = False  # the records were rewound for `combined.regate`

    @property
    def regate(self) -> list[str]:
        return list(self.combined.regate) if self.combined else []


OPEN: Final = ("asking", "pending")
"""The states a later run (`resume`) takes up again."""


def is_pending(state: ConvergenceState | None) -> bool:
    """Reviews a later run still has to ask (a check is not finished while one is)."""
    return state is not None and state.status in OPEN


def read_state(workspace: Path) -> ConvergenceState | None:
    return read_model(workspace / FILE, ConvergenceState, "convergence review record")


def write_state(workspace: Path, state: ConvergenceState) -> None:
    write_model(workspace / FILE, state)


def rewound(results: Results, state: ConvergenceState) -> Results:
    """The records with the flagged results re-drafted and their dependents re-gated (pure)."""
    if state.combined is None:
        return results
    reasons: dict[str, list[str]] = {}
    for flag in state.combined.flags:
        reasons.setdefault(flag.result, []).append(f"{flag.concern}: {flag.reason}")
    regate = set(state.combined.regate)
    records = []
    for record in results.results:
        if record.id in regate:
            record = rewind(record, "re-gate")
            record = record.model_copy(update={"notes": [MARK]}).with_work(record.work)
            if record.id in reasons:
                feedback = "convergence review: " + "; ".join(reasons[record.id])
                record = record.with_work(sent_back(record.work, feedback))
        records.append(record)
    return results.model_copy(update={"results": records})


def was_applied(results: Results, state: ConvergenceState) -> bool:
    """The rewind is in the records already (a crash came before `applied` was written)."""
    by_id = {r.id: r for r in results.results}
    return any(MARK in by_id[rid].notes for rid in state.regate if rid in by_id)

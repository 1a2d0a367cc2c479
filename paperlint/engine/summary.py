"""The run's summary, and the one function that maps it to an exit code (docs/design.md §8)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from paperlint.exitcodes import ExitCode
from paperlint.records.results import Results, Verdict


@dataclass(frozen=True)
class Summary:
    counts: dict[str, int]
    interrupted: bool = False
    replay: bool = False
    workspace: str = ""
    stop_reason: str | None = None
    notes: list[str] = field(default_factory=list)
    replay_parts: list[str] = field(default_factory=list)
    """What was replayed: "model", "lean" (`replay` is true for either)."""
    review_pending: bool = False
    """The final convergence review was stopped (provider, budget): `resume` asks it, and
    until then the verdicts are not final, as with an unfinished result."""

    @property
    def exit_code(self) -> ExitCode:
        """0 all verified; 1 an issue; 4 unfinished (or the final review pending) and no
        issue; 5 nothing to check (no verdict-bearing result: an empty or theorem-less paper);
        130 interrupted."""
        if self.interrupted:
            return ExitCode.INTERRUPTED
        if not self.counts:
            return ExitCode.NOTHING_TO_CHECK
        if self.counts.get(Verdict.ISSUE.value, 0):
            return ExitCode.ISSUE
        unfinished = self.counts.get(Verdict.UNFINISHED.value, 0) or self.counts.get("pending", 0)
        if unfinished or self.review_pending:
            return ExitCode.UNFINISHED
        return ExitCode.VERIFIED


def summarise(results: Results, **extra: object) -> Summary:
    counts: Counter[str] = Counter()
    for record in results.results:
        if not record.verdict_bearing:
            continue
        counts[record.verdict.value if record.verdict else "pending"] += 1
    return Summary(
        counts=dict(counts),
        replay=results.replay,
        replay_parts=list(results.replay_parts),
        **extra,  # type: ignore[arg-type]
    )

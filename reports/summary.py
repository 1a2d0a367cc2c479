"""Numbers every output agrees on: counts per verdict and costs by role, model and result.

All renderers take their numbers from here, so the fact check only has to compare each output
with the records once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from paperlint.preflight.model import Diagnostic
from paperlint.records.results import Verdict
from paperlint.reports.describe import shown_paths, split_replay_misses, unfinished_text
from paperlint.reports.load import ReportData, ReportedCall, ResultView

VERDICT_ORDER: tuple[str, ...] = (
    Verdict.VERIFIED_UNCONDITIONAL.value,
    Verdict.VERIFIED_CONDITIONAL.value,
    Verdict.ISSUE.value,
    Verdict.UNFINISHED.value,
    "no_verdict",
)
VERDICT_LABELS: dict[str, str] = {
    "verified_unconditional": "verified unconditionally",
    "verified_conditional": "verified conditionally",
    "issue": "issue recorded",
    "unfinished": "unfinished",
    "no_verdict": "no verdict yet",
    "input": "input (not verdict-bearing)",
}


CHECKED_LABELS: dict[str, str] = {
    "checker": "compared by the trusted checker (compiled proof module against the gate's "
    "reference module)",
    "elaboration": "compared by Lean's elaboration inside the checked file",
    "text": "compared by its text only",
}


def checked_counts(data: ReportData) -> dict[str, int]:
    """How the statements of the verified verdicts were compared, by kind (issue #25)."""
    counts = dict.fromkeys(CHECKED_LABELS, 0)
    for view in data.views:
        if view.checked in counts:
            counts[view.checked] += 1
    return counts


def verdict_key(view: ResultView) -> str:
    """The summary bucket of a result; definitions and assumptions are inputs, not verdicts."""
    if not view.record.verdict_bearing:
        return "input"
    return view.verdict.value if view.verdict else "no_verdict"


def verdict_counts(data: ReportData) -> dict[str, int]:
    counts = dict.fromkeys([*VERDICT_ORDER, "input"], 0)
    for view in data.views:
        counts[verdict_key(view)] += 1
    return counts


@dataclass(frozen=True)
class CostLine:
    """A group of model calls. `cost_usd` is the total only when every call's cost is known."""

    key: str
    calls: int
    tokens_in: int
    tokens_out: int
    known_usd: float
    unknown_calls: int

    @property
    def cost_usd(self) -> float | None:
        return None if self.unknown_calls else self.known_usd


def cost_line(key: str, calls: Iterable[ReportedCall]) -> CostLine:
    group = list(calls)
    return CostLine(
        key=key,
        calls=len(group),
        tokens_in=sum(c.tokens_in for c in group),
        tokens_out=sum(c.tokens_out for c in group),
        known_usd=sum(c.cost_usd for c in group if c.cost_usd is not None),
        unknown_calls=sum(1 for c in group if c.cost_usd is None),
    )


def calls_text(data: ReportData) -> str:
    """The model calls made, and, when the budget was charged for more (a request charged
    before it was made and never answered), how many it was charged for."""
    made = len(data.calls)
    charged = data.charged_calls
    if charged is None or charged <= made:
        return str(made)
    unanswered = charged - made
    return (
        f"{made} ({charged} charged to the budget: {unanswered} "
        f"{'request was' if unanswered == 1 else 'requests were'} charged and never answered)"
    )


def cost_by(data: ReportData, key: Callable[[ReportedCall], str]) -> list[CostLine]:
    groups: dict[str, list[ReportedCall]] = {}
    for call in data.calls:
        groups.setdefault(key(call), []).append(call)
    return [cost_line(name, calls) for name, calls in sorted(groups.items())]


def cost_tables(data: ReportData) -> dict[str, list[CostLine]]:
    return {
        "role": cost_by(data, lambda c: c.role),
        "model": cost_by(data, lambda c: c.model),
        "result": cost_by(data, lambda c: c.result or "(run)"),
    }


def format_usd(line: CostLine) -> str:
    """'$1.23', 'unknown', or '$1.23 + unknown (2 calls)' — an unknown cost is never $0."""
    if line.calls and line.unknown_calls == line.calls:
        return "unknown"
    text = money(line.known_usd)
    if line.unknown_calls:
        plural = "s" if line.unknown_calls > 1 else ""
        text += f" + unknown ({line.unknown_calls} call{plural})"
    return text


def money(value: float) -> str:
    # Sub-cent calls keep four decimals so a cheap call never reads as $0.00.
    return f"${value:.2f}" if value >= 0.01 or value == 0 else f"${value:.4f}"


def format_duration(seconds: float | None) -> str:
    if seconds is None:
        return "unknown"
    minutes, secs = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return f"{hours} h {minutes:02d} min {secs:02d} s"
    return f"{minutes} min {secs:02d} s"


def version_label(key: str) -> str:
    """'lean_toolchain' -> 'Lean toolchain', 'models.gate' -> 'model for gate'."""
    if key.startswith("models."):
        return f"model for {key.removeprefix('models.')}"
    text = key.replace("_", " ")
    return {"lean toolchain": "Lean toolchain", "mathlib": "Mathlib"}.get(text, text)


def replay_banner(data: ReportData) -> str | None:
    if not data.is_replay:
        return None
    parts = " and ".join(
        {"model": "model answers", "lean": "Lean responses"}.get(p, p) for p in data.replay_parts
    )
    return (
        f"REPLAY: this run used recorded {parts} instead of live calls. "
        "Its verdicts show that the recorded run is reproducible, not that a model or Lean "
        "was consulted for this report."
    )


def lean_absence(view: ResultView) -> str:
    """Why no Lean statement is shown: a reader must not take "missing" for "never tried"."""
    evidence = view.record.evidence
    if evidence.lean_file:
        return f"not found in {evidence.lean_file} (see the notes)"
    if evidence.gate:
        return "not named in the evidence; the gated draft is among the audit files"
    return "not formalised"


def evidence_files(view: ResultView) -> list[str]:
    """Workspace paths a reader can open to check this verdict."""
    evidence = view.record.evidence
    paths = [evidence.lean_file, evidence.gate, evidence.final_check, evidence.audit]
    issue = view.record.issue
    if issue is not None:
        paths += [issue.evidence.counterexample, issue.evidence.review]
    seen: list[str] = []
    for path in [*paths, *evidence.hashes]:
        if path and path not in seen:
            seen.append(path)
    return seen


def unfinished_texts(data: ReportData) -> dict[str, str]:
    """Each unfinished result's reason as a reader should see it: paths a reader elsewhere can
    use, and a replay miss in plain words (its key goes to `technical_lines`)."""
    return {
        view.id: split_replay_misses(
            shown_paths(unfinished_text(view.record.unfinished), data.workspace)
        )[0]
        for view in data.views
        if view.record.unfinished
    }


def technical_lines(view: ResultView, workspace: Path) -> list[str]:
    """What a reader of the paper does not need, kept for whoever debugs the run: the prover
    strategy chosen, how each obligation was closed, and the key of any replay miss."""
    lines = [f"Strategy: {view.strategy}"] if view.strategy else []
    lines += [f"Prover, {line}" for line in view.proving]
    if view.record.unfinished is not None:
        text = shown_paths(unfinished_text(view.record.unfinished), workspace)
        lines += split_replay_misses(text)[1]
    return lines


DIAGNOSTICS_HINT = (
    "What LaTeX would complain about or number differently, found while reading the source "
    "(`paperlint preflight PAPER` lists them too); they are about the text, not the proofs."
)
SEVERITY_ORDER: dict[str, int] = {"error": 0, "warning": 1, "info": 2}


def diagnostics(data: ReportData) -> list[Diagnostic]:
    """The preflight's diagnostics of the paper (inventory.json), errors first, in file order.

    They are about the source as LaTeX reads it (a duplicate label, an undefined reference, an
    environment never closed), not about the proofs; every output lists them apart."""
    found = data.inventory.diagnostics if data.inventory is not None else []
    return sorted(
        found, key=lambda d: (SEVERITY_ORDER.get(d.severity, 3), d.file, d.line or 0, d.column or 0)
    )

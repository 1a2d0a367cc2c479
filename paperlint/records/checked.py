"""How a verified verdict's statement was compared with the gated one (issue #25), from the
records a workspace keeps: the report shows it beside the verdict and counts it."""

from __future__ import annotations

import json
from pathlib import Path

from paperlint.lean.trusted import judgement, read_run
from paperlint.lean.verifier import Outcome
from paperlint.records.results import ResultRecord, Verdict


def how_checked(workspace: Path, record: ResultRecord) -> str | None:
    """How a verified verdict's statement was compared with the gated one (issue #25):
    "checker" when the trusted checker's kept run passes when re-judged from its record,
    "elaboration" when the final file's own `#paperlint_statement` answered, else "text"."""
    if record.verdict not in (Verdict.VERIFIED_UNCONDITIONAL, Verdict.VERIFIED_CONDITIONAL):
        return None

    def read(rel: str | None) -> object:
        path = _inside(workspace, rel) if rel else None
        try:
            return json.loads(path.read_text(encoding="utf-8")) if path else None
        except (OSError, ValueError):
            return None

    run = read_run(read(record.evidence.checker))
    verdict = judgement(run) if run is not None else None
    if run is not None and run.outcome is Outcome.ACCEPTED and verdict and verdict.passed:
        return "checker"
    final = read(record.evidence.final_check)
    statements = final.get("statements") if isinstance(final, dict) else None
    if isinstance(statements, dict) and statements.get(record.evidence.lean_name or ""):
        return "elaboration"
    return "text"


def _inside(workspace: Path, relative: str) -> Path | None:
    """A record's path, refused when it leaves the workspace (records are data)."""
    path = (workspace / relative).resolve()
    return path if path.is_relative_to(workspace.resolve()) else None

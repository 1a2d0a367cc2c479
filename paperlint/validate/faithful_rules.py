"""The faithfulness record of a result (#15): consistent (validate), and re-checked (replay).

`audits/<id>/faithfulness.json` is optional; when present, every positive claim in it (a
direction of the two drafts' equivalence, a refutation, an unneeded hypothesis) must be the
text the checks would write for the recorded statements, accepted with standard axioms
(`paperlint.faithful.recheck.inconsistencies`), and `replay` sends each claim to Lean again.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from paperlint.faithful.attempts import has_standard_axioms
from paperlint.faithful.recheck import Recheck, claims, inconsistencies, recheck
from paperlint.lean.verifier import Outcome
from paperlint.records.faithfulness import FILE, FaithfulnessEvidence
from paperlint.records.results import ResultRecord
from paperlint.validate.context import Context
from paperlint.validate.model import Check, Finding
from paperlint.validate.redraft import Status

_STATUS: dict[Recheck, Status] = {
    Recheck.CONFIRMED: "confirmed",
    Recheck.DISAGREES: "refuted",
    Recheck.UNCHECKED: "not-run",
}


def evidence_path(ctx: Context, record: ResultRecord) -> str:
    return f"{ctx.audit_dir(record.id)}/{FILE}"


def load(ctx: Context, record: ResultRecord) -> tuple[FaithfulnessEvidence | None, str | None]:
    """(evidence, problem): nothing when there is no file, a problem when it is unreadable."""
    text = ctx.snap.text(evidence_path(ctx, record))
    if text is None:
        return None, None
    try:
        return FaithfulnessEvidence.model_validate_json(text), None
    except (ValidationError, ValueError) as exc:
        return None, f"unreadable faithfulness record: {str(exc).splitlines()[0][:200]}"


def faithfulness_findings(ctx: Context, record: ResultRecord) -> list[Finding]:
    evidence, problem = load(ctx, record)
    problems = [problem] if problem else []
    if evidence is not None:
        if not ctx.names_record(evidence.result, record):
            problems.append(f"the record is about {evidence.result!r}, not {record.id!r}")
        problems += inconsistencies(evidence)
    path = evidence_path(ctx, record)
    return [ctx.about(record, path, Check.FAITHFULNESS_INCONSISTENT, p) for p in problems]


def rerun_claims(
    ctx: Context, record: ResultRecord, verifier: Any, mode: str
) -> list[tuple[str, Status, str]]:
    """(claim, status, detail) for every positive claim, re-checked in Lean."""
    evidence, _ = load(ctx, record)
    if evidence is None:
        return []
    if verifier is None:
        return [(c.what, "not-run", "Lean unavailable") for c in claims(evidence)]
    if mode == "replay":
        checks = recheck(verifier, evidence, timeout_s=120.0)
        return [(c.claim.what, _STATUS[c.status], c.hint or "") for c in checks]
    return [_live(verifier, evidence, claim) for claim in claims(evidence)]


def _live(verifier: Any, evidence: FaithfulnessEvidence, claim: Any) -> tuple[str, Status, str]:
    # A live final checker builds files: the claim on top of its recorded context.
    with tempfile.TemporaryDirectory(prefix="paperlint-faithful-") as folder:
        path = Path(folder) / "Faithful.lean"
        path.write_text(evidence.context.text() + "\n" + claim.declaration + "\n", "utf-8")
        check = verifier.final_check(path, [claim.target], timeout_s=900.0)
    if check.outcome in (Outcome.UNAVAILABLE, Outcome.TIMEOUT):
        return claim.what, "not-run", check.outcome.value
    if check.clean and has_standard_axioms(check.axioms.get(claim.target)):
        return claim.what, "confirmed", "accepted with standard axioms"
    return claim.what, "refuted", (check.hint or "the claim does not build cleanly")[:200]

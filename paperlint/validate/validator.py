"""`validate`: re-derive every verdict of a workspace from its evidence (docs/design.md §5, §10).

Pure over a `Snapshot`; the CLI loads the snapshot and prints the findings.
"""

from __future__ import annotations

from paperlint.records.results import ResultRecord, Stage, Verdict
from paperlint.validate.checker_rules import checker_claimed
from paperlint.validate.context import Context, build_context
from paperlint.validate.faithful_rules import faithfulness_findings
from paperlint.validate.gate_rules import gate_findings
from paperlint.validate.inventory_rules import inventory_findings, replay_findings
from paperlint.validate.issue_rules import issue_findings
from paperlint.validate.model import Finding, Snapshot
from paperlint.validate.record_rules import (
    event_findings,
    hash_findings,
    shape_findings,
    source_findings,
)
from paperlint.validate.soundness_rules import record_findings, workspace_findings
from paperlint.validate.verified_rules import is_verified, verified_findings


def validate(snap: Snapshot) -> list[Finding]:
    """Every disagreement between a verdict and its evidence; empty when all re-derive."""
    return validate_with_notes(snap)[0]


def validate_with_notes(snap: Snapshot) -> tuple[list[Finding], list[str]]:
    """The findings, and what a clean result cannot vouch for (`evidence_notes`), from one
    reading of the workspace."""
    ctx = build_context(snap)
    found: list[Finding] = [*snap.record_errors, *source_findings(ctx), *event_findings(ctx)]
    found += [*inventory_findings(ctx), *replay_findings(ctx), *workspace_findings(ctx)]
    for record in snap.records:
        found.extend(result_findings(ctx, record))
    return _unique(found), evidence_notes(ctx)


PRE_CHECKER_NOTE = (
    "this workspace carries no trusted-checker evidence (it reads as one made before the "
    "checker, issue #25): its {n} verified or issue verdict(s) rest on each Lean file's own "
    "build and #print axioms, which no reading of the files can tell from a forged one; "
    "`paperlint replay --lean-replay DIR` re-judges them with Lean"
)


def evidence_notes(ctx: Context) -> list[str]:
    """What a clean `validate` cannot vouch for: a workspace without checker evidence (an old
    one, or a new one stripped to look old) is validated on its files' own builds."""
    judged = sum(1 for r in ctx.records.values() if is_verified(r) or r.verdict is Verdict.ISSUE)
    if judged and not checker_claimed(ctx):
        return [PRE_CHECKER_NOTE.format(n=judged)]
    return []


def result_findings(ctx: Context, record: ResultRecord) -> list[Finding]:
    found = [*shape_findings(ctx, record), *hash_findings(ctx, record)]
    found += record_findings(ctx, record)
    found += faithfulness_findings(ctx, record)
    if is_verified(record):
        found.extend(verified_findings(ctx, record))
    elif record.verdict is Verdict.ISSUE:
        found.extend(issue_findings(ctx, record))
    elif _is_gated_input(record):
        found.extend(gate_findings(ctx, record)[0])
    return found


def _is_gated_input(record: ResultRecord) -> bool:
    """A definition or assumption that others build on: its gate must hold up too."""
    return (
        not record.verdict_bearing
        and record.stage is Stage.DONE
        and record.verdict is None
        and record.evidence.gate is not None
    )


def _unique(found: list[Finding]) -> list[Finding]:
    return list(dict.fromkeys(found))

"""The gate: a verdict is about the statement a reviewer passed, and nothing else.

Shared by verified results, ERROR issues (the counterexample refutes the gated statement) and
gated definitions. The fingerprint is recomputed from the gate record's own statement with the
engine's function, so a record whose fingerprint was copied rather than computed disagrees.
"""

from __future__ import annotations

import json
from typing import Any

from paperlint.engine import ports
from paperlint.engine.leantext import parse_declaration
from paperlint.records.results import ResultRecord
from paperlint.validate import leanfile
from paperlint.validate.context import Context
from paperlint.validate.model import Check, Finding


def gate_findings(ctx: Context, record: ResultRecord) -> tuple[list[Finding], str | None]:
    """Findings about the record's gate, and the gated statement when it can be trusted."""
    path = record.evidence.gate
    gate = ctx.gate(record)
    if path is None or gate is None:
        why = "no gate record is named" if path is None else f"{path} is missing or not JSON"
        return [ctx.at(record, Check.GATE_MISSING, why)], None
    found: list[Finding] = []
    if gate.get("schema") != "paperlint.gate/1" or gate.get("result") != record.id:
        message = f"{path} is not a paperlint.gate/1 record of {record.id}"
        found.append(ctx.about(record, path, Check.GATE_MISSING, message))
    if gate.get("decision") != "PASS" or _review_decision(gate) != "PASS":
        message = f"the gate did not pass the statement (decision {gate.get('decision')!r})"
        found.append(ctx.about(record, path, Check.GATE_NOT_PASSED, message))
    rounds = ctx.gate_files(record.id)
    if rounds and rounds[-1][1] != path:
        message = f"the latest gate round is {rounds[-1][1]}, not the cited {path}"
        found.append(ctx.about(record, path, Check.GATE_NOT_LATEST, message))
    statement = gate.get("statement")
    if not isinstance(statement, str) or not statement.strip():
        found.append(ctx.about(record, path, Check.GATE_MISSING, "the gate has no statement"))
        return found, None
    found.extend(_fingerprint_findings(ctx, record, path, gate, statement))
    found.extend(_draft_findings(ctx, record, gate, statement))
    return found, statement


def _review_decision(gate: dict[str, Any]) -> str | None:
    review = gate.get("review")
    return review.get("decision") if isinstance(review, dict) else None


def _fingerprint_findings(
    ctx: Context, record: ResultRecord, path: str, gate: dict[str, Any], statement: str
) -> list[Finding]:
    computed = ports.fingerprint(statement)
    found: list[Finding] = []
    if gate.get("statement_fingerprint") != computed:
        message = f"the gate's fingerprint is not that of its statement ({computed})"
        found.append(ctx.about(record, path, Check.GATE_FINGERPRINT, message))
    if record.evidence.statement_fingerprint != computed:
        message = f"evidence.statement_fingerprint is not the gated statement's ({computed})"
        found.append(ctx.at(record, Check.GATE_FINGERPRINT, message))
    if record.work.fingerprint not in (None, computed):
        message = "the engine's recorded fingerprint differs from the gated statement's"
        found.append(ctx.at(record, Check.GATE_FINGERPRINT, message))
    return found


def _draft_findings(
    ctx: Context, record: ResultRecord, gate: dict[str, Any], statement: str
) -> list[Finding]:
    """The draft the gate reviewed (its file and the record's copy) must hold that statement."""
    found: list[Finding] = []
    draft = record.work.draft
    if draft is None or draft.statement.strip() != statement.strip():
        message = "results.json's draft statement is not the gated statement"
        found.append(ctx.at(record, Check.GATED_STATEMENT_MISMATCH, message))
    round_ = gate.get("round")
    draft_path = f"{ctx.audit_dir(record.id)}/draft-{round_}.json"
    on_disk = ctx.snap.json(draft_path)
    if on_disk is None:
        message = f"the draft the gate reviewed ({draft_path}) is missing"
        return [*found, ctx.at(record, Check.GATED_STATEMENT_MISMATCH, message)]
    found.extend(_typechecked_findings(ctx, record, draft_path, statement))
    if str(on_disk.get("statement", "")).strip() != statement.strip():
        message = "the reviewed draft's statement is not the gated statement"
        found.append(ctx.about(record, draft_path, Check.GATED_STATEMENT_MISMATCH, message))
    if draft is not None:
        mine = [c.model_dump(mode="json") for c in draft.conditions]
        if _canonical(on_disk.get("conditions", [])) != _canonical(mine):
            message = "results.json's draft conditions are not those of the reviewed draft"
            found.append(ctx.about(record, draft_path, Check.CONDITIONS_MISMATCH, message))
        if list(on_disk.get("definitions", [])) != list(draft.definitions):
            message = "results.json's draft definitions are not those of the reviewed draft"
            found.append(ctx.about(record, draft_path, Check.DEFINITION_CHANGED, message))
    return found


def _typechecked_findings(
    ctx: Context, record: ResultRecord, draft_path: str, statement: str
) -> list[Finding]:
    """The text Lean type-checked for that draft (`draft-N.lean`) holds the same statement:
    one more copy a forger has to find and rewrite consistently."""
    lean_path = draft_path.removesuffix(".json") + ".lean"
    text = ctx.snap.text(lean_path)
    parsed = parse_declaration(statement)
    if text is None or parsed is None:
        return []  # a draft refused before Lean has no such file
    matches = leanfile.named(text, parsed.name)
    expected = ports.fingerprint(statement)
    if len(matches) == 1 and leanfile.statement_fingerprint(text, matches[0]) == expected:
        return []
    message = f"the type-checked draft does not hold the gated statement of `{parsed.name}`"
    return [ctx.about(record, lean_path, Check.GATED_STATEMENT_MISMATCH, message)]


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)

"""The gate: a verdict is about the statement a reviewer passed, and nothing else.

Shared by verified results, ERROR issues (the counterexample refutes the gated statement) and
gated definitions. The fingerprint is recomputed from the gate record's own statement with the
engine's function, so a record whose fingerprint was copied rather than computed disagrees.
"""

from __future__ import annotations

import json
from typing import Any

from paperlint.lean import compose
from paperlint.lean.compose import parse_declaration
from paperlint.records import audits
from paperlint.records.results import ResultRecord
from paperlint.records.slots import draft_of, fingerprint_of, gating, obligations_of
from paperlint.validate.context import Context, reviewed_draft
from paperlint.validate.model import Check, Finding


def gate_findings(ctx: Context, record: ResultRecord) -> tuple[list[Finding], str | None]:
    """Findings about the record's gate, and the gated statement when it can be trusted."""
    path = record.evidence.gate
    gate = ctx.gate(record)
    if path is None or gate is None:
        why = "no gate record is named" if path is None else f"{path} is missing or not JSON"
        return [ctx.at(record, Check.GATE_MISSING, why)], None
    found: list[Finding] = []
    if gate.get("schema") != audits.GATE or not ctx.names_record(gate.get("result"), record):
        message = f"{path} is not a {audits.GATE} record of {record.id}"
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
    computed = compose.fingerprint(statement)
    found: list[Finding] = []
    if gate.get("statement_fingerprint") != computed:
        message = f"the gate's fingerprint is not that of its statement ({computed})"
        found.append(ctx.about(record, path, Check.GATE_FINGERPRINT, message))
    if record.evidence.statement_fingerprint != computed:
        message = f"evidence.statement_fingerprint is not the gated statement's ({computed})"
        found.append(ctx.at(record, Check.GATE_FINGERPRINT, message))
    if fingerprint_of(record.work) not in (None, computed):
        message = "the engine's recorded fingerprint differs from the gated statement's"
        found.append(ctx.at(record, Check.GATE_FINGERPRINT, message))
    return found


def _draft_findings(
    ctx: Context, record: ResultRecord, gate: dict[str, Any], statement: str
) -> list[Finding]:
    """The draft the gate reviewed — its file, its type-checked text and results.json's copy —
    must agree with each other and hold the gated statement."""
    found: list[Finding] = []
    draft = draft_of(record.work)
    if draft is None or draft.statement.strip() != statement.strip():
        message = "results.json's draft statement is not the gated statement"
        found.append(ctx.at(record, Check.GATED_STATEMENT_MISMATCH, message))
    gate_path = record.evidence.gate
    draft_path = reviewed_draft(ctx.snap, gate_path) if gate_path else None
    on_disk = ctx.snap.json(draft_path)
    if draft_path is None or on_disk is None:
        message = f"the draft the gate reviewed is missing from {ctx.audit_dir(record.id)}/"
        return [*found, ctx.at(record, Check.GATED_STATEMENT_MISMATCH, message)]
    if str(on_disk.get("statement", "")).strip() != statement.strip():
        message = "the reviewed draft's statement is not the gated statement"
        found.append(ctx.about(record, draft_path, Check.GATED_STATEMENT_MISMATCH, message))
    if draft is not None and _canonical(on_disk) != _canonical(draft.model_dump(mode="json")):
        message = "results.json's draft differs from the reviewed draft file"
        rule = _which_part(on_disk, draft.model_dump(mode="json"))
        found.append(ctx.about(record, draft_path, rule, message))
    found.extend(_typechecked_findings(ctx, record, draft_path, on_disk))
    found.extend(_review_copy_findings(ctx, record, gate))
    found.extend(_name_and_skeleton_findings(ctx, record, statement))
    return found


def _name_and_skeleton_findings(
    ctx: Context, record: ResultRecord, statement: str
) -> list[Finding]:
    """The verdict's Lean name is the gated statement's, and each proof obligation starts from
    the gated text (a step skeleton, or the statement itself for `main`)."""
    draft = draft_of(record.work)
    parsed = parse_declaration(statement)
    found: list[Finding] = []
    names = {record.evidence.lean_name, draft.lean_name if draft else None}
    # A definition keeps the blueprint's name in its evidence; only a theorem is named by it.
    if record.verdict_bearing and (parsed is None or names != {parsed.name}):
        message = f"evidence.lean_name {record.evidence.lean_name!r} is not the gated statement's"
        found.append(ctx.at(record, Check.GATED_STATEMENT_MISMATCH, message))
    if draft is None or not obligations_of(record.work):
        return found
    gated = {o.id: o.lean for o in draft.obligations if o.id != "main"} | {"main": statement}
    for obligation in obligations_of(record.work):
        if gated.get(obligation.id, "").strip() != obligation.skeleton.strip():
            message = f"obligation {obligation.id}'s skeleton is not the gated text"
            found.append(ctx.at(record, Check.GATED_STATEMENT_MISMATCH, message))
    return found


def _which_part(on_disk: dict[str, Any], mine: dict[str, Any]) -> Check:
    if _canonical(on_disk.get("conditions")) != _canonical(mine.get("conditions")):
        return Check.CONDITIONS_MISMATCH
    if on_disk.get("definitions") != mine.get("definitions"):
        return Check.DEFINITION_CHANGED
    return Check.GATED_STATEMENT_MISMATCH


def _typechecked_findings(
    ctx: Context, record: ResultRecord, draft_path: str, draft: dict[str, Any]
) -> list[Finding]:
    """The text Lean type-checked for that draft (`draft-N.lean`) is exactly the draft's
    definitions, step skeletons and statement, as the engine composes it (`_draft_text`)."""
    lean_path = draft_path.removesuffix(".json") + ".lean"
    text = ctx.snap.text(lean_path)
    steps = [
        o.get("lean", "")
        for o in draft.get("obligations", [])
        if isinstance(o, dict) and o.get("id") != "main"
    ]
    expected = "\n\n".join([*draft.get("definitions", []), *steps, draft.get("statement", "")])
    if text == expected:
        return []
    message = "the type-checked draft text is not the reviewed draft's"
    return [ctx.about(record, lean_path, Check.GATED_STATEMENT_MISMATCH, message)]


def _review_copy_findings(
    ctx: Context, record: ResultRecord, gate: dict[str, Any]
) -> list[Finding]:
    """results.json keeps the gate's review; the file must say the same."""
    gates = gating(record.work).gates
    path = record.evidence.gate or ""
    same = bool(gates) and _canonical(gate.get("review")) == _canonical(
        gates[-1].model_dump(mode="json")
    )
    if same and gate.get("round") == len(gates) and path.endswith(f"gate-{len(gates)}.json"):
        return []
    message = "the gate record's review or round differs from results.json's last gate"
    return [ctx.about(record, path, Check.GATE_RECORD_MISMATCH, message)]


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)

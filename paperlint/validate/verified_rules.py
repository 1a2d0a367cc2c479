"""Verified verdicts (docs/design.md §5): re-derived from the trusted checker's record, the Lean
file a referee reads and the audit.

Every number that matters is recomputed: the checker's findings and the gate's lock from their
records (`checker_rules`), the statement's fingerprint from the file's text, the hygiene scan,
the binders. The records' own booleans (`clean`, `fingerprint_ok`, `axioms_ok`) are never read.
A workspace from before the checker (issue #25) carries the file's own cold build instead
(`final-check.json`): its exit, output and `#print axioms` are re-read as before.
"""

from __future__ import annotations

from typing import Any

from paperlint.lean.declarations import declarations
from paperlint.lean.findings import Rule
from paperlint.lean.messages import SORRY_WARNING, output_text, parse_marked_axioms, read_output
from paperlint.lean.verifier import STANDARD_AXIOMS
from paperlint.records.results import ResultRecord, Verdict, to_condition
from paperlint.records.slots import audited, draft_of
from paperlint.validate import leanfile
from paperlint.validate.checker_rules import checker_claimed, checker_findings
from paperlint.validate.condition_rules import condition_findings
from paperlint.validate.context import Context
from paperlint.validate.gate_rules import gate_findings
from paperlint.validate.model import Check, Finding
from paperlint.validate.reconnect_rules import reconnection_findings
from paperlint.validate.reconstruct import proof_module, rebuilt_findings

_SKELETON_RULES = {
    Rule.STATEMENT_CHANGED: Check.DEFINITION_CHANGED,  # a step or dependency statement
    Rule.DECLARATION_CHANGED: Check.DEFINITION_CHANGED,
    Rule.DECLARATION_REMOVED: Check.DEFINITION_CHANGED,
    Rule.DUPLICATE_DECLARATION: Check.LEAN_DECLARATION_MISSING,
    Rule.HEADER_CHANGED: Check.LEAN_CONTEXT_CHANGED,
    Rule.CONTEXT_CHANGED: Check.LEAN_CONTEXT_CHANGED,
    Rule.HELPER_NOT_ALLOWED: Check.HELPER_NOT_ALLOWED,
}


def verified_findings(ctx: Context, record: ResultRecord) -> list[Finding]:
    found, gated = gate_findings(ctx, record)
    discharge, discharged = reconnection_findings(ctx, record)
    found.extend(discharge)
    lean_file = record.evidence.lean_file
    text = ctx.snap.text(lean_file)
    if lean_file is None or text is None:
        found.append(ctx.at(record, Check.LEAN_FILE_MISSING, f"no Lean file at {lean_file}"))
    else:
        found.extend(lean_file_findings(ctx, record, lean_file, text, gated, discharged))
        found.extend(rebuilt_findings(ctx, record, lean_file, proof_module(ctx, record)))
    if record.evidence.final_check is not None or not checker_claimed(ctx):
        found.extend(final_check_findings(ctx, record, lean_file))  # before the checker
    found.extend(checker_findings(ctx, record))
    found.extend(audit_findings(ctx, record))
    found.extend(engine_audit_findings(ctx, record))
    return found


def engine_audit_findings(ctx: Context, record: ResultRecord) -> list[Finding]:
    """A failure the engine recorded is a failure. Its passes are never trusted (everything
    is recomputed above), but a hand-upgrade of an `audit_failed` result shows up here."""
    final = audited(record.work).final
    if final is None:
        return [ctx.at(record, Check.ENGINE_AUDIT_FAILED, "the engine recorded no final audit")]
    problems = [
        what
        for what, bad in (
            ("build not clean", not final.clean),
            ("axioms not standard", not final.axioms_ok),
            ("hygiene findings", bool(final.hygiene_findings)),
            ("statement fingerprint changed", not final.fingerprint_ok),
            ("another final-check record", final.record != record.evidence.final_check),
            ("another Lean file", final.file != record.evidence.lean_file),
        )
        if bad
    ]
    if not problems:
        return []
    message = "the engine's own audit says: " + ", ".join(problems)
    return [ctx.at(record, Check.ENGINE_AUDIT_FAILED, message)]


def lean_file_findings(
    ctx: Context,
    record: ResultRecord,
    path: str,
    text: str,
    gated: str | None,
    discharged: frozenset[str] | set[str] = frozenset(),
) -> list[Finding]:
    """The Lean file against the gated records; `discharged`: hypotheses a reconnection that
    re-derives has discharged (`reconnect_rules`), no longer conditions of the verdict."""
    name = record.evidence.lean_name or (
        drafted.lean_name if (drafted := draft_of(record.work)) else ""
    )
    found = [_hygiene(ctx, record, f) for f in leanfile.hygiene_findings(path, ctx.snap.files)]
    for item in leanfile.skeleton_findings(ctx.header, text, ctx.gated, file=path):
        rule = _SKELETON_RULES.get(item.rule, Check.LEAN_CONTEXT_CHANGED)
        found.append(ctx.about(record, path, rule, item.message, item.line))
    trivial = leanfile.trivial_definitions(
        ctx.gated[d.name] for d in declarations(text) if d.name in ctx.gated
    )
    for def_name in trivial:
        message = f"`{def_name}` is a Prop that is just `True`: statements about it are vacuous"
        found.append(ctx.about(record, path, Check.TRIVIAL_DEFINITION, message))
    matches = leanfile.named(text, name)
    if len(matches) != 1:
        message = f"`{name}` is declared {len(matches)} times in the Lean file (expected once)"
        found.append(ctx.about(record, path, Check.LEAN_DECLARATION_MISSING, message))
        return found
    declaration = matches[0]
    line = declaration.keyword_token.line
    computed = leanfile.statement_fingerprint(text, declaration)
    expected = record.evidence.statement_fingerprint
    if computed != expected:
        message = f"`{name}` in the file has statement fingerprint {computed}, not {expected}"
        found.append(ctx.about(record, path, Check.STATEMENT_CHANGED, message, line))
    binders = leanfile.binders_of(leanfile.source_of(text, declaration))
    if gated is not None and binders != leanfile.binders_of(gated):
        message = f"the hypotheses of `{name}` are not those of the gated statement"
        found.append(ctx.about(record, path, Check.STATEMENT_CHANGED, message, line))
    for problem in leanfile.contradictions(binders):
        found.append(ctx.about(record, path, Check.CONTRADICTORY_HYPOTHESES, problem, line))
    found.extend(condition_findings(ctx, record, binders, path, discharged))
    found.extend(_draft_condition_findings(ctx, record, discharged))
    return found


def _hygiene(ctx: Context, record: ResultRecord, item: Any) -> Finding:
    message = f"{item.rule.value}: {item.message}"
    return ctx.about(record, item.file, Check.HYGIENE, message, item.line)


def _draft_condition_findings(
    ctx: Context, record: ResultRecord, discharged: frozenset[str] | set[str]
) -> list[Finding]:
    """results.json's conditions are exactly the gated draft's (none may be dropped), less
    those a reconnection discharged in Lean."""
    draft = draft_of(record.work)
    if draft is None:
        return []
    kept = [c for c in draft.conditions if c.name not in discharged]
    expected = [to_condition(c).model_dump(mode="json") for c in kept]
    listed = [c.model_dump(mode="json") for c in record.conditions]
    if expected == listed:
        return []
    message = f"the listed conditions are not the gated draft's ({len(expected)} gated)"
    return [ctx.at(record, Check.CONDITIONS_MISMATCH, message)]


def final_check_findings(
    ctx: Context, record: ResultRecord, lean_file: str | None
) -> list[Finding]:
    path = record.evidence.final_check
    data = ctx.snap.json(path)
    if path is None or data is None:
        return [ctx.at(record, Check.FINAL_CHECK_MISSING, f"no final-check record at {path}")]
    name = record.evidence.lean_name or ""
    found = [
        ctx.about(record, path, Check.FINAL_CHECK_UNCLEAN, problem) for problem in unclean(data)
    ]
    actual = ctx.snap.sha256(lean_file) if lean_file else None
    if actual is not None and data.get("file_sha256") != actual:
        message = f"the final check was of other bytes than {lean_file} (sha256 {actual})"
        found.append(ctx.about(record, path, Check.FINAL_CHECK_STALE, message))
    found.extend(_axiom_findings(ctx, record, path, data, name))
    return found


def unclean(data: dict[str, Any]) -> list[str]:
    """Why a FinalCheck dump is not a clean build, read from its fields and its output."""
    problems: list[str] = []
    if data.get("outcome") != "accepted":
        problems.append(f"outcome {data.get('outcome')!r}")
    if data.get("exit_code") != 0:
        problems.append(f"exit code {data.get('exit_code')!r}")
    messages = read_output(str(data.get("output", "")))
    if data.get("has_sorry_warning") is not False or any(
        SORRY_WARNING.search(m.text) for m in messages
    ):
        problems.append("a `sorry` warning")
    if data.get("errors") != [] or any(m.severity == "error" for m in messages):
        problems.append(f"errors: {str(data.get('errors'))[:200]}")
    return problems


def _axiom_findings(
    ctx: Context, record: ResultRecord, path: str, data: dict[str, Any], name: str
) -> list[Finding]:
    axioms = (data.get("axioms") or {}).get(name)
    if not isinstance(axioms, list):
        return [ctx.about(record, path, Check.AXIOMS_MISSING, f"no `#print axioms` for {name}")]
    found: list[Finding] = []
    bad = sorted(a for a in axioms if a not in STANDARD_AXIOMS)
    if bad:
        message = f"`{name}` depends on {', '.join(bad)}"
        found.append(ctx.about(record, path, Check.AXIOMS_NONSTANDARD, message))
    if record.evidence.axioms is None or set(record.evidence.axioms) != set(axioms):
        message = f"evidence.axioms {record.evidence.axioms} differ from the final check's {axioms}"
        found.append(ctx.at(record, Check.AXIOMS_MISMATCH, message))
    parsed = parsed_axioms(data, name)
    if parsed is None or set(parsed) != set(axioms):
        message = f"Lean's recorded output gives axioms {parsed} for {name}, not {axioms}"
        found.append(ctx.about(record, path, Check.AXIOMS_OUTPUT_MISMATCH, message))
    return found


def parsed_axioms(data: dict[str, Any], name: str) -> tuple[str, ...] | None:
    """The axioms between the marker lines of the recorded output (markers carry the sha)."""
    output = str(data.get("output", ""))
    _, sep, tail = output.partition("\n--- axioms ---\n")
    if not sep:
        return None
    found, _ = parse_marked_axioms(output_text(tail), [name], str(data.get("file_sha256", "")))
    return found.get(name)


def audit_findings(ctx: Context, record: ResultRecord) -> list[Finding]:
    path = record.evidence.audit
    data = ctx.snap.json(path)
    if path is None or data is None:
        return [ctx.at(record, Check.AUDIT_MISSING, f"no final-audit record at {path}")]
    found: list[Finding] = []
    answer = audited(record.work).audit
    copy = answer.model_dump(mode="json") if answer else None
    if copy != {k: v for k, v in data.items() if k != "schema"}:
        message = "final-audit.json differs from results.json's copy of the audit"
        found.append(ctx.about(record, path, Check.AUDIT_RECORD_MISMATCH, message))
    if data.get("decision") != "PASS" or data.get("route_followed") is not True:
        message = f"the final audit did not pass (decision {data.get('decision')!r})"
        found.append(ctx.about(record, path, Check.AUDIT_NOT_PASSED, message))
    return found


def is_verified(record: ResultRecord) -> bool:
    return record.verdict in (Verdict.VERIFIED_UNCONDITIONAL, Verdict.VERIFIED_CONDITIONAL)

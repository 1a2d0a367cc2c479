"""Rules about a record's shape and its files: stage and verdict agree, hashed evidence is
unchanged, the kept source is the paper that was checked, and the event log agrees."""

from __future__ import annotations

from typing import Any

from paperlint.records.events import verdict_of
from paperlint.records.results import ResultRecord, Stage, Verdict
from paperlint.validate.context import Context
from paperlint.validate.model import Check, Finding, safe_rel

_PROOF_VERDICTS = (Verdict.VERIFIED_UNCONDITIONAL, Verdict.VERIFIED_CONDITIONAL, Verdict.ISSUE)


def shape_findings(ctx: Context, record: ResultRecord) -> list[Finding]:
    found: list[Finding] = []
    verdict = record.verdict
    if record.verdict_bearing and record.stage is Stage.DONE and verdict is None:
        found.append(ctx.at(record, Check.VERDICT_MISSING, "done without a verdict"))
    if verdict in _PROOF_VERDICTS and record.stage is not Stage.DONE:
        message = f"verdict {verdict} at stage {record.stage}, not done"
        found.append(ctx.at(record, Check.STAGE_VERDICT, message))
    if verdict in _PROOF_VERDICTS and not record.verdict_bearing:
        message = f"a {record.kind} is not verdict-bearing but has verdict {verdict}"
        found.append(ctx.at(record, Check.NOT_VERDICT_BEARING, message))
    if (record.issue is not None) != (verdict is Verdict.ISSUE):
        message = f"verdict {verdict} with issue record {'set' if record.issue else 'absent'}"
        found.append(ctx.at(record, Check.VERDICT_INCONSISTENT, message))
    if (record.unfinished is not None) != (verdict is Verdict.UNFINISHED):
        state = "set" if record.unfinished else "absent"
        message = f"verdict {verdict} with unfinished record {state}"
        found.append(ctx.at(record, Check.VERDICT_INCONSISTENT, message))
    if record.conditions and verdict is not Verdict.VERIFIED_CONDITIONAL:
        message = f"conditions listed on a {verdict} verdict"
        found.append(ctx.at(record, Check.VERDICT_INCONSISTENT, message))
    return found


def evidence_paths(record: ResultRecord) -> list[str]:
    ev = record.evidence
    paths = [ev.lean_file, ev.gate, ev.final_check, ev.audit, *ev.hashes]
    if record.issue is not None:
        paths += [record.issue.evidence.counterexample, record.issue.evidence.review]
    return [p for p in paths if p is not None]


def hash_findings(ctx: Context, record: ResultRecord) -> list[Finding]:
    found: list[Finding] = []
    for path in evidence_paths(record):
        if safe_rel(path) is None:
            message = f"evidence path {path!r} leaves the workspace"
            found.append(ctx.at(record, Check.EVIDENCE_PATH, message))
        elif not ctx.snap.has(path):
            message = f"the evidence names {path}, which does not exist"
            found.append(ctx.at(record, Check.EVIDENCE_MISSING, message))
    for path, digest in record.evidence.hashes.items():
        actual = ctx.snap.sha256(path) if safe_rel(path) else None
        if actual is None:
            found.append(ctx.at(record, Check.HASH_MISSING, f"hashed evidence {path} is missing"))
        elif actual != digest:
            message = f"sha256 of {path} is {actual}, the record says {digest}"
            found.append(ctx.about(record, path, Check.HASH_MISMATCH, message))
    for path in _must_be_hashed(record):
        if path not in record.evidence.hashes:
            message = f"{path} backs the verdict but its sha256 was not recorded"
            found.append(ctx.at(record, Check.HASH_MISSING, message))
    return found


def _must_be_hashed(record: ResultRecord) -> list[str]:
    """The files the engine hashes when it records each verdict (apply.py, execute.py)."""
    ev = record.evidence
    if record.verdict in (Verdict.VERIFIED_UNCONDITIONAL, Verdict.VERIFIED_CONDITIONAL):
        return [p for p in (ev.lean_file, ev.final_check, ev.audit, ev.gate) if p]
    if record.verdict is Verdict.ISSUE and record.issue and record.issue.evidence.review:
        return [record.issue.evidence.review]
    return []


def source_findings(ctx: Context) -> list[Finding]:
    """The kept source must be the paper preflight read: quotes are checked against it."""
    inventory = ctx.snap.json("inventory.json") or {}
    found: list[Finding] = []
    for entry in inventory.get("files", []):
        if not isinstance(entry, dict):
            continue
        rel = safe_rel(str(entry.get("path", "")))
        actual = ctx.snap.sha256(f"source/{rel}") if rel else None
        if actual is not None and actual != entry.get("sha256"):
            message = f"the kept source differs from the checked paper (sha256 {actual})"
            found.append(Finding(f"source/{rel}", Check.HASH_MISMATCH, message))
    return found


def event_findings(ctx: Context) -> list[Finding]:
    """Each verdict must be the last one the event log recorded for its result."""
    events = ctx.snap.events
    if events is None:
        message = "events.jsonl is missing: verdicts cannot be traced to the run that made them"
        return [Finding("events.jsonl", Check.EVENTS_MISSING, message)]
    last: dict[str, dict[str, Any]] = {}
    for item, name in zip(events, ctx.names.now, strict=True):
        logged_verdict = verdict_of(item)  # an `action_finished` line, or an older `verdict`
        if logged_verdict is not None and name is not None:  # by the id its result has now
            last[name] = item
    found: list[Finding] = []
    for record in ctx.records.values():
        if record.verdict is None:
            continue
        event = last.get(record.id)
        if event is None and record.verdict is Verdict.UNFINISHED:
            continue  # the engine gives stopped results `unfinished` without an event
        logged = event.get("verdict") if event else None
        issue_class = record.issue.class_.value if record.issue else None
        logged_class = event.get("class") if event else None
        if logged != record.verdict.value or logged_class != issue_class:
            message = (
                f"results.json says {record.verdict.value} {issue_class or ''}; "
                f"the last verdict event says {logged} {logged_class or ''}"
            )
            found.append(ctx.at(record, Check.VERDICT_EVENT_MISMATCH, message))
    return found

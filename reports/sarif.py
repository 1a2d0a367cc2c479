"""report.sarif: SARIF 2.1.0, so code hosts can annotate the TeX source (design §9).

One SARIF result per recorded issue and per unfinished verdict-bearing result, at the TeX file
and line. Rule ids are the issue classes and `unfinished/<reason>`. Levels: `error` for ERROR
(a false conclusion), `warning` for the gaps, `note` for unfinished (not counted against the
paper, KAPPA Table 2).
"""

from __future__ import annotations

from typing import Any, Final
from urllib.parse import quote

from paperlint import __version__
from paperlint.records.results import Verdict
from paperlint.reports.describe import ISSUE_CLASSES, SIDES, issue_confirmation
from paperlint.reports.load import ReportData, ResultView

SARIF_SCHEMA: Final = "https://json.schemastore.org/sarif-2.1.0.json"
BASE_ID: Final = "PAPERROOT"


def render_sarif(data: ReportData) -> dict[str, Any]:
    findings = [f for view in data.views if (f := _finding(view)) is not None]
    rules = sorted({f["ruleId"] for f in findings})
    for finding in findings:
        finding["ruleIndex"] = rules.index(finding["ruleId"])
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "paperlint",
                "version": data.versions.get("paperlint", __version__),
                "rules": [_rule(rule_id) for rule_id in rules],
            }
        },
        "originalUriBaseIds": {
            BASE_ID: {"description": {"text": "The folder of the paper's root TeX file."}}
        },
        "results": findings,
        "properties": {"replay": data.is_replay, "replayParts": data.replay_parts},
    }
    if data.is_replay:
        run["automationDetails"] = {
            "description": {"text": "Replay of recorded model and Lean responses."}
        }
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def _rule(rule_id: str) -> dict[str, Any]:
    if rule_id.startswith("unfinished/"):
        reason = rule_id.split("/", 1)[1]
        text = f"No verdict yet: {reason.replace('_', ' ')}. Not counted against the paper."
        level = "note"
    else:
        text = f"{rule_id}: {ISSUE_CLASSES[rule_id]}."
        level = "error" if rule_id == "ERROR" else "warning"
    return {
        "id": rule_id,
        "shortDescription": {"text": text},
        "defaultConfiguration": {"level": level},
    }


def _finding(view: ResultView) -> dict[str, Any] | None:
    record = view.record
    if record.verdict is Verdict.ISSUE and record.issue is not None:
        issue = record.issue
        message = (
            f"{view.heading}: {issue.class_.value} ({ISSUE_CLASSES[issue.class_.value]}). "
            f"{issue.summary} Side at fault: {SIDES[issue.side]}. {issue_confirmation(issue)}."
        )
        level = "error" if issue.class_.value == "ERROR" else "warning"
        location = _location(issue.location.file, issue.location.line, issue.location.quote)
        return _result(view, issue.class_.value, level, message, location)
    if record.verdict is Verdict.UNFINISHED and record.unfinished and record.verdict_bearing:
        reason = record.unfinished.reason.value
        message = f"{view.heading}: unfinished ({reason}). {record.unfinished.detail}".strip()
        where = view.location
        place = _location(*where, None) if where else None
        return _result(view, f"unfinished/{reason}", "note", message, place)
    return None


def _result(
    view: ResultView, rule_id: str, level: str, message: str, location: dict[str, Any] | None
) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ruleId": rule_id,
        "level": level,
        "message": {"text": " ".join(message.split())},
        "partialFingerprints": {"paperlintResultId/v1": view.id},
        "properties": {
            "resultId": view.id,
            "number": view.number,
            "verdict": view.record.verdict.value if view.record.verdict else None,
        },
    }
    if location is not None:
        result["locations"] = [location]
    return result


def _location(file: str, line: int, quote_text: str | None) -> dict[str, Any]:
    region: dict[str, Any] = {"startLine": max(1, line)}
    if quote_text:
        region["snippet"] = {"text": quote_text}
    return {
        "physicalLocation": {
            "artifactLocation": {"uri": quote(file), "uriBaseId": BASE_ID},
            "region": region,
        }
    }

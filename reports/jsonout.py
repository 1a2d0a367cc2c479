"""report.json: the machine-readable summary (`paperlint.report/1`).

`diagnostics` are the preflight's (inventory.json): `severity`, `file`, `line`, `column`,
`code`, `message`, errors first.

A cost is `null` when any call in its group has an unknown cost; `cost_usd_known` and
`calls_cost_unknown` then say how much is known, so a script never mistakes unknown for $0.
"""

from __future__ import annotations

from typing import Any, Final

from paperlint.reports.load import ReportData, ResultView
from paperlint.reports.summary import (
    CostLine,
    checked_counts,
    cost_line,
    cost_tables,
    diagnostics,
    verdict_counts,
    verdict_key,
)

REPORT_SCHEMA: Final = "paperlint.report/1"


def render_json(data: ReportData) -> dict[str, Any]:
    return {
        "schema": REPORT_SCHEMA,
        "paper": data.results.paper,
        "replay": data.is_replay,
        "replay_parts": data.replay_parts,
        "counts": verdict_counts(data),
        "checked_counts": checked_counts(data),
        "wall_time_s": data.wall_s,
        "costs": {
            "total": _cost(cost_line("total", data.calls)),
            **{
                f"by_{name}": [_cost(line) for line in table]
                for name, table in cost_tables(data).items()
            },
        },
        "versions": data.versions,
        "has_blueprint": data.has_blueprint,
        "notes": data.notes,
        "stale": (
            {"message": data.stale.message, "hint": data.stale.hint}
            if data.stale is not None
            else None
        ),
        "diagnostics": [d.model_dump(mode="json") for d in diagnostics(data)],
        "results": [_result(view) for view in data.views],
    }


def _cost(line: CostLine) -> dict[str, Any]:
    return {
        "key": line.key,
        "calls": line.calls,
        "tokens_in": line.tokens_in,
        "tokens_out": line.tokens_out,
        "cost_usd": line.cost_usd,
        "cost_usd_known": round(line.known_usd, 6),
        "calls_cost_unknown": line.unknown_calls,
    }


def _result(view: ResultView) -> dict[str, Any]:
    record = view.record
    issue = record.issue
    where = view.location
    return {
        "id": view.id,
        "number": view.number,
        "kind": view.kind,
        "stage": record.stage.value,
        "verdict": record.verdict.value if record.verdict else None,
        "stale": view.stale,
        "summary_bucket": verdict_key(view),
        "class": issue.class_.value if issue else None,
        "side": issue.side if issue else None,
        "location": {"file": issue.location.file, "line": issue.location.line} if issue else None,
        "reason": record.unfinished.reason.value if record.unfinished else None,
        "conditions": [{"name": c.name, "kind": c.kind.value} for c in record.conditions],
        "lean_file": record.evidence.lean_file,
        "lean_name": record.evidence.lean_name,
        "checked": view.checked,
        "place": {"file": where[0], "line": where[1]} if where else None,
    }

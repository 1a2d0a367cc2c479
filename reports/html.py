"""report.html: one self-contained file (inline CSS and SVG, no script, no network).

Paper text and model-written text are untrusted, so the template autoescapes everything and a
Content-Security-Policy forbids scripts and remote loads: even a missed escape cannot run code.
Only the SVG we draw ourselves (its labels escaped in `graph.py`) is inserted as markup.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from jinja2 import Environment, StrictUndefined
from markupsafe import Markup

from paperlint.reports.describe import (
    CONDITION_KINDS,
    ISSUE_CLASSES,
    SIDES,
    condition_source,
    issue_confirmation,
    issue_location,
    unfinished_text,
)
from paperlint.reports.graph import COLOURS, anchor, render_svg
from paperlint.reports.load import ReportData, ResultView
from paperlint.reports.since import HEADERS, since_rows
from paperlint.reports.summary import (
    VERDICT_LABELS,
    cost_line,
    cost_tables,
    evidence_files,
    format_duration,
    format_usd,
    lean_absence,
    replay_banner,
    verdict_counts,
    verdict_key,
    version_label,
)


def _asset(name: str) -> str:
    return resources.files("paperlint.reports").joinpath(name).read_text(encoding="utf-8")


def render_html(data: ReportData, *, svg: str | None = None) -> str:
    env = Environment(autoescape=True, undefined=StrictUndefined, keep_trailing_newline=True)
    env.filters["version_label"] = version_label
    template = env.from_string(_asset("report.html.j2"))
    return template.render(
        css=Markup(_asset("report.css")),
        svg=Markup(svg if svg is not None else render_svg(data, link=True)),
        **context(data),
    )


def context(data: ReportData) -> dict[str, Any]:
    total = cost_line("total", data.calls)
    counts = verdict_counts(data)
    return {
        "title": data.results.paper or data.workspace.name,
        "banner": replay_banner(data),
        "counts": [
            {"key": k, "label": VERDICT_LABELS[k], "count": n, "colour": COLOURS[k]}
            for k, n in counts.items()
        ],
        "wall_time": format_duration(data.wall_s),
        "calls": total.calls,
        "total_cost": format_usd(total),
        "cost_tables": {
            name: [
                {
                    "key": line.key,
                    "calls": line.calls,
                    "tokens_in": line.tokens_in,
                    "tokens_out": line.tokens_out,
                    "usd": format_usd(line),
                }
                for line in table
            ]
            for name, table in cost_tables(data).items()
        },
        "versions": data.versions,
        "notes": data.notes,
        "since": _since(data),
        "results": [_result(data, view) for view in data.views],
    }


def _since(data: ReportData) -> dict[str, Any] | None:
    if data.since is None:
        return None
    return {
        "at": str(data.since.get("at", "")),
        "reset": len(data.since.get("reset", [])),
        "added": len(data.since.get("added", [])),
        "removed": len(data.since.get("removed", [])),
        "parts": [
            {"title": title, "header": HEADERS[title], "rows": rows}
            for title, rows in since_rows(data.since).items()
        ],
    }


def _result(data: ReportData, view: ResultView) -> dict[str, Any]:
    key = verdict_key(view)
    record = view.record
    where = view.location
    bib = data.bibliography()
    return {
        "id": view.id,
        "anchor": anchor(view.id),
        "heading": view.heading,
        "number": view.number or "—",
        "kind": view.kind,
        "verdict": key,
        "verdict_label": VERDICT_LABELS[key],
        "colour": COLOURS[key],
        "place": f"{where[0]}:{where[1]}" if where else None,
        "statement": view.source.statement if view.source else None,
        "lean_name": view.lean_name,
        "lean_file": record.evidence.lean_file,
        "lean_statement": view.lean_statement,
        "lean_absence": lean_absence(view),
        "conditions": [
            {
                "name": c.name,
                "lean_type": c.lean_type,
                "kind": CONDITION_KINDS[c.kind],
                "source": condition_source(c, bib),
                "used_by": c.used_by or "—",
            }
            for c in record.conditions
        ],
        "issue": _issue(view),
        "counterexample": view.counterexample,
        "faithfulness": list(view.faithfulness),
        "unfinished": unfinished_text(record.unfinished) if record.unfinished else None,
        "reason": record.unfinished.reason.value if record.unfinished else None,
        "stage": record.stage.value,
        "files": evidence_files(view),
    }


def _issue(view: ResultView) -> dict[str, str] | None:
    issue = view.record.issue
    if issue is None:
        return None
    return {
        "class": issue.class_.value,
        "meaning": ISSUE_CLASSES[issue.class_.value],
        "side": SIDES[issue.side],
        "location": issue_location(issue),
        "quote": issue.location.quote,
        "summary": issue.summary,
        "evidence": issue_confirmation(issue),
    }

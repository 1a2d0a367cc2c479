"""report.html: one self-contained file (inline CSS and SVG, no script, no network).

Paper text and model-written text are untrusted, so the template autoescapes everything and a
Content-Security-Policy forbids scripts and remote loads: even a missed escape cannot run code.
Only the SVG we draw ourselves (its labels escaped in `graph.py`) is inserted as markup.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any
from urllib.parse import quote

from jinja2 import Environment, FunctionLoader, StrictUndefined, Template
from markupsafe import Markup

from paperlint.diagnostics import place
from paperlint.reports.describe import (
    CONDITION_KINDS,
    ISSUE_CLASSES,
    SIDES,
    condition_source,
    issue_confirmation,
    issue_location,
    unfinished_groups,
)
from paperlint.reports.graph import (
    COLOURS,
    anchor,
    grouped,
    overview_svg,
    render_svg,
    section_anchor,
)
from paperlint.reports.load import ReportData, ResultView
from paperlint.reports.since import HEADERS, since_rows
from paperlint.reports.summary import (
    CHECKED_LABELS,
    DIAGNOSTICS_HINT,
    VERDICT_LABELS,
    calls_text,
    checked_counts,
    cost_line,
    cost_tables,
    diagnostics,
    evidence_files,
    format_duration,
    format_usd,
    lean_absence,
    replay_banner,
    technical_lines,
    unfinished_texts,
    verdict_counts,
    verdict_key,
    version_label,
)
from paperlint.reports.texhtml import statement_html
from paperlint.usercache import jinja_bytecode


def _asset(name: str) -> str:
    return resources.files("paperlint.reports").joinpath(name).read_text(encoding="utf-8")


# The other outputs beside report.html (docs/design.md §3: `report/`), linked from its header.
PAGES = (
    ("report.md", "Markdown report"),
    ("worksheet.md", "worksheet of external inputs"),
    ("files-to-check.md", "Lean files to check"),
    ("report.json", "JSON"),
    ("report.sarif", "SARIF"),
    ("graph.svg", "graph"),
)


@cache
def _template() -> Template:
    # Compiled once per process, and its code kept in the user's cache between processes:
    # compiling is most of a report's time (`paperlint batch` writes one report per paper, a
    # finished check's resume one report in all).
    env = Environment(
        loader=FunctionLoader(lambda name: (_asset(name), None, lambda: True)),
        autoescape=True,
        undefined=StrictUndefined,
        keep_trailing_newline=True,
    )
    env.bytecode_cache = jinja_bytecode(env)
    env.filters["version_label"] = version_label
    return env.get_template("report.html.j2")


def render_html(data: ReportData, *, svg: str | None = None) -> str:
    template = _template()
    groups = grouped(data) if svg is None else None
    return template.render(
        css=Markup(_asset("report.css")),
        svg=Markup(overview_svg(groups) if groups else svg or render_svg(data, link=True)),
        groups=[
            {
                "key": g.key,
                "anchor": section_anchor(g.key),
                "count": len(g.views),
                "summary": _group_summary(g.views),
                "svg": Markup(g.svg),
            }
            for g in groups or []
        ],
        **context(data),
    )


def _group_summary(views: list[ResultView]) -> str:
    counts: dict[str, int] = {}
    for view in views:
        counts[verdict_key(view)] = counts.get(verdict_key(view), 0) + 1
    return ", ".join(f"{n} {VERDICT_LABELS[k]}" for k, n in counts.items())


def context(data: ReportData) -> dict[str, Any]:
    total = cost_line("total", data.calls)
    counts = verdict_counts(data)
    texts = unfinished_texts(data)
    shared = unfinished_groups(texts)
    shared_of = {rid: i for i, (_, ids) in enumerate(shared) for rid in ids}
    resolve = _resolver(data)
    return {
        "title": data.title or data.results.paper or data.workspace.name,
        "file": data.results.paper,
        "pages": [{"href": href, "label": label} for href, label in PAGES],
        "shared": [
            {
                "anchor": f"shared-{i + 1}",
                "text": text,
                "results": [{"anchor": anchor(rid), "label": _short(data, rid)} for rid in ids],
            }
            for i, (text, ids) in enumerate(shared)
        ],
        "banner": replay_banner(data),
        "stale": data.stale.banner() if data.stale else None,
        "counts": [
            {"key": k, "label": VERDICT_LABELS[k], "count": n, "colour": COLOURS[k]}
            for k, n in counts.items()
        ],
        "checked_counts": [
            {"key": k, "label": CHECKED_LABELS[k], "count": n}
            for k, n in checked_counts(data).items()
        ],
        "wall_time": format_duration(data.wall_s),
        "calls": calls_text(data),
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
        "convergence": data.convergence,
        "diagnostics": [
            {
                "severity": d.severity,
                "place": place(d.file, d.line, d.column),
                "message": d.message,
                "code": d.code,
            }
            for d in diagnostics(data)
        ],
        "diagnostics_hint": DIAGNOSTICS_HINT,
        "technical": data.technical,
        "since": _since(data),
        "results": [
            _result(data, view, texts.get(view.id), shared_of.get(view.id), resolve)
            for view in data.views
        ],
    }


def _short(data: ReportData, result_id: str) -> str:
    view = data.view(result_id)
    return (view.number or result_id) if view else result_id


def _resolver(data: ReportData) -> Any:
    """`\\ref{label}` -> (link, printed number): results by their labels, then equations."""
    targets: dict[str, tuple[str, str]] = {}
    for view in data.views:
        for label in view.source.labels if view.source else []:
            targets[label] = ("#" + anchor(view.id), view.number or view.id)
    if data.inventory is not None:
        for label, eq in data.inventory.equations.items():
            if label not in targets:
                place = data.view(eq.result) if eq.result else None
                href = "#" + anchor(place.id) if place else ""
                targets[label] = (href, eq.number)
    return targets.get


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


def _result(
    data: ReportData,
    view: ResultView,
    unfinished: str | None,
    shared: int | None,
    resolve: Any,
) -> dict[str, Any]:
    key = verdict_key(view)
    record = view.record
    where = view.location
    bib = data.bibliography()
    inventory = data.inventory
    statement = view.source.statement if view.source else None
    return {
        "id": view.id,
        "anchor": anchor(view.id),
        "heading": view.heading,
        "number": view.number or "—",
        "kind": view.kind,
        "verdict": key,
        "verdict_label": VERDICT_LABELS[key],
        "colour": COLOURS[key],
        "stale": view.stale,
        "place": f"{where[0]}:{where[1]}" if where else None,
        "statement": statement,
        "statement_html": Markup(
            statement_html(
                statement,
                macros=inventory.macros if inventory else (),
                resolve=resolve,
                equations={k: e.number for k, e in inventory.equations.items()}
                if inventory
                else None,
            )
        )
        if statement is not None
        else None,
        "lean_name": view.lean_name,
        "lean_file": record.evidence.lean_file,
        "lean_href": _href(record.evidence.lean_file),
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
        "reconnection": list(view.reconnection),
        "reconnected_lean": view.reconnected_lean,
        "library": list(view.library),
        "technical": technical_lines(view, data.workspace),
        "checked": CHECKED_LABELS[view.checked] if view.checked else None,
        "checked_key": view.checked,
        "unfinished": unfinished,
        "shared": f"shared-{shared + 1}" if shared is not None else None,
        "reason": record.unfinished.reason.value if record.unfinished else None,
        "stage": record.stage.value,
        "files": [{"path": f, "href": _href(f)} for f in evidence_files(view)],
    }


def _href(path: str | None) -> str | None:
    """A link from report/report.html to a workspace file (records hold workspace paths)."""
    if not path or path.startswith(("/", "\\")) or ".." in path.split("/") or ":" in path:
        return None
    return "../" + quote(path)


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

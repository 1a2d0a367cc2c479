"""report.md: the author report as Markdown (summary, then every result in document order)."""

from __future__ import annotations

from collections.abc import Sequence

from paperlint.reports import mdtext as md
from paperlint.reports.describe import (
    CONDITION_KINDS,
    ISSUE_CLASSES,
    SIDES,
    condition_source,
    issue_confirmation,
    issue_location,
    unfinished_groups,
    unfinished_text,
)
from paperlint.reports.load import ReportData, ResultView
from paperlint.reports.since import since_lines
from paperlint.reports.summary import (
    CHECKED_LABELS,
    DIAGNOSTICS_HINT,
    VERDICT_LABELS,
    CostLine,
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


def render_markdown(data: ReportData) -> str:
    title = data.title or data.results.paper or data.workspace.name
    lines = [f"# paperlint report: {md.inline(title)}", ""]
    banner = replay_banner(data)
    if banner:
        lines += [f"> **{md.inline(banner)}**", ""]
    if data.stale is not None:
        lines += [f"> **{md.inline(data.stale.banner())}**", ""]
    lines += summary_lines(data)
    lines += diagnostic_lines(data)
    lines += since_lines(data.since)
    lines += glance_lines(data)
    lines += ["## Dependency graph", "", "![Dependency graph of the results](graph.svg)", ""]
    lines += ["## Results", ""]
    texts = unfinished_texts(data)
    shared = unfinished_groups(texts)
    for n, (text, ids) in enumerate(shared, 1):
        numbers = ", ".join(md.inline(_number(data, rid)) for rid in ids)
        lines += [f"**Shared reason {n}** ({len(ids)} results are unfinished for it): "]
        lines += [f"{md.inline(text)}", "", f"Results: {numbers}", ""]
    shared_of = {rid: n for n, (_, ids) in enumerate(shared, 1) for rid in ids}
    for view in data.views:
        lines += result_lines(data, view, texts.get(view.id), shared_of.get(view.id))
    return "\n".join(lines).rstrip() + "\n"


def _number(data: ReportData, result_id: str) -> str:
    view = data.view(result_id)
    return (view.number or result_id) if view else result_id


def diagnostic_lines(data: ReportData) -> list[str]:
    """The preflight's diagnostics, one `file:line:column: severity: message [code]` each."""
    found = diagnostics(data)
    if not found:
        return []
    lines = ["## Preflight diagnostics", "", DIAGNOSTICS_HINT, ""]
    return [*lines, md.block("\n".join(d.render() for d in found), "text"), ""]


def glance_lines(data: ReportData) -> list[str]:
    rows = []
    for view in data.views:
        record = view.record
        detail = record.issue.class_.value if record.issue else None
        detail = detail or (record.unfinished.reason.value if record.unfinished else "—")
        rows.append(
            [md.inline(view.number or "—"), md.inline(view.heading), md.code(view.id, cell=True)]
            + [VERDICT_LABELS[verdict_key(view)] + (" (STALE)" if view.stale else "")]
            + [md.inline(detail)]
        )
    header = ["No.", "Result", "Id", "Verdict", "Class or reason"]
    return ["## Results at a glance", "", *md.table(header, rows), ""]


def summary_lines(data: ReportData) -> list[str]:
    counts = verdict_counts(data)
    rows = [[VERDICT_LABELS[key], str(n)] for key, n in counts.items()]
    lines = ["## Summary", "", *md.table(["Verdict", "Results"], rows, "lr"), ""]
    checked = [[CHECKED_LABELS[k], str(n)] for k, n in checked_counts(data).items()]
    lines += ["How the verified statements were checked:", ""]
    lines += [*md.table(["Statement", "Results"], checked, "lr"), ""]
    total = cost_line("total", data.calls)
    lines += [
        f"- Wall time: {format_duration(data.wall_s)}",
        f"- Model calls: {calls_text(data)}",
        f"- Total cost: {md.inline(format_usd(total))}",
        "",
    ]
    for name, table in cost_tables(data).items():
        lines += [f"### Cost by {name}", "", *_cost_table(name, table), ""]
    lines += _versions(data)
    lines += _bullets("### Convergence review", data.convergence)
    lines += _bullets("### What this report could not show", data.notes)
    lines += _technical("Technical details of this run", data.technical)
    return lines


def _technical(summary: str, items: Sequence[str]) -> list[str]:
    """A collapsed list (GitHub and most Markdown viewers fold `<details>`), or nothing."""
    if not items:
        return []
    bullets = [f"- {md.inline(item)}" for item in items]
    return [f"<details><summary>{summary}</summary>", "", *bullets, "", "</details>", ""]


def _bullets(title: str, items: Sequence[str]) -> list[str]:
    """A titled bullet list, or nothing when there is nothing to list."""
    if not items:
        return []
    return [title, "", *(f"- {md.inline(item)}" for item in items), ""]


def _cost_table(name: str, table: list[CostLine]) -> list[str]:
    if not table:
        return ["No model calls recorded."]
    rows = [
        [md.inline(line.key), str(line.calls), str(line.tokens_in), str(line.tokens_out)]
        + [md.inline(format_usd(line))]
        for line in table
    ]
    header = [name.capitalize(), "Calls", "Tokens in", "Tokens out", "Cost (USD)"]
    return md.table(header, rows, "lrrrr")


def _versions(data: ReportData) -> list[str]:
    if not data.versions:
        return ["### Versions", "", "No versions recorded.", ""]
    rows = [[md.inline(version_label(k)), md.code(v, cell=True)] for k, v in data.versions.items()]
    return ["### Versions", "", *md.table(["Component", "Version"], rows), ""]


def result_lines(
    data: ReportData, view: ResultView, unfinished: str | None = None, shared: int | None = None
) -> list[str]:
    label = VERDICT_LABELS[verdict_key(view)]
    stale = " (STALE)" if view.stale else ""
    lines = [f"### {md.inline(view.heading)} — {label}{stale}", ""]
    if view.stale:
        lines += [f"> **STALE:** {md.inline(view.stale)}; this verdict is about the old text.", ""]
    where = view.location
    lines.append(f"- Id: {md.code(view.id)}; kind: {md.inline(view.kind)}")
    if where:
        lines.append(f"- Place: {md.code(f'{where[0]}:{where[1]}')}")
    lines += ["", "Paper statement:", ""]
    statement = view.source.statement if view.source else "(not in the inventory)"
    lines += [md.block(statement, "latex"), ""]
    lines += _lean_lines(view)
    lines += _bullets("Reconnection (a clause discharged in Lean):", view.reconnection)
    if view.reconnection and view.reconnected_lean:
        lines += [md.block(view.reconnected_lean, "lean"), ""]
    lines += _bullets("Faithfulness evidence:", view.faithfulness)
    lines += _bullets("Library lemmas:", view.library)
    lines += [f"**Verdict:** {label}", ""]
    if view.checked:
        lines += [f"How checked: the statement was {CHECKED_LABELS[view.checked]}.", ""]
    lines += _verdict_details(data, view, unfinished, shared)
    files = evidence_files(view)
    if files:
        lines += ["Evidence files:", ""] + [f"- {md.code(f)}" for f in files] + [""]
    lines += _technical("Technical details", technical_lines(view, data.workspace))
    return lines


def _lean_lines(view: ResultView) -> list[str]:
    if view.lean_statement is None:
        return [f"Lean statement: {md.inline(lean_absence(view))}.", ""]
    where = f"{md.code(view.lean_name or '')} in {md.code(view.lean_file or '')}"
    return [f"Lean statement ({where}):", "", md.block(view.lean_statement, "lean"), ""]


def _verdict_details(
    data: ReportData, view: ResultView, unfinished: str | None, shared: int | None
) -> list[str]:
    record = view.record
    lines: list[str] = []
    if record.conditions:
        bib = data.bibliography()
        rows = [
            [md.code(c.name, cell=True), md.code(c.lean_type, cell=True), CONDITION_KINDS[c.kind]]
            + [md.inline(condition_source(c, bib)), md.inline(c.used_by or "—")]
            for c in record.conditions
        ]
        header = ["Hypothesis", "Lean type", "Kind", "Source", "Used by"]
        lines += ["Conditions:", "", *md.table(header, rows), ""]
    if record.issue is not None:
        issue = record.issue
        lines += [
            f"- Issue class: {issue.class_.value} ({ISSUE_CLASSES[issue.class_.value]})",
            f"- Side at fault: {SIDES[issue.side]}",
            f"- Location: {md.code(issue_location(issue))}",
            f"- Quote: {md.code(issue.location.quote)}",
            f"- Summary: {md.inline(issue.summary or '—')}",
            f"- Evidence: {md.inline(issue_confirmation(issue))}",
            "",
        ]
    if view.counterexample:
        lines += ["Counterexample (Lean):", "", md.block(view.counterexample, "lean"), ""]
    if record.unfinished is not None and shared is not None:
        reason = record.unfinished.reason.value
        lines += [f"- Unfinished: {md.inline(reason)} (shared reason {shared}, above)", ""]
    elif record.unfinished is not None:
        text = unfinished or unfinished_text(record.unfinished)
        lines += [f"- Unfinished: {md.inline(text)}", ""]
    if record.verdict is None and record.verdict_bearing:
        lines += [f"- Stage: {record.stage.value}", ""]
    return lines

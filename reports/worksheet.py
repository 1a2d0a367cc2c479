"""worksheet.md and files-to-check.md: what a person must still check by hand.

A conditional verdict is only as good as its inputs, and a verified verdict only as good as the
Lean statement it is about. The worksheet lists every assumed input; the file list names the
Lean statements to read.
"""

from __future__ import annotations

from dataclasses import dataclass

from paperlint.records.results import Condition
from paperlint.reports import mdtext as md
from paperlint.reports.describe import CONDITION_KINDS, EXTERNAL_KINDS, plain_tex
from paperlint.reports.load import ReportData, ResultView
from paperlint.reports.summary import VERDICT_LABELS, verdict_key


@dataclass(frozen=True)
class Input:
    view: ResultView
    condition: Condition


def external_inputs(data: ReportData) -> list[Input]:
    return [
        Input(view, c)
        for view in data.views
        for c in view.record.conditions
        if c.kind in EXTERNAL_KINDS
    ]


def internal_inputs(data: ReportData) -> list[Input]:
    return [
        Input(view, c)
        for view in data.views
        for c in view.record.conditions
        if c.kind not in EXTERNAL_KINDS
    ]


def render_worksheet(data: ReportData) -> str:
    bib = data.bibliography()
    lines = [
        "# Worksheet: inputs to check by hand",
        "",
        "Each hypothesis below is assumed, not proved, by the Lean evidence of the result that",
        "uses it. Check that the cited work (or the paper's own words) really supplies it, in",
        "the form stated, then tick the box.",
        "",
    ]
    inputs = external_inputs(data)
    if not inputs:
        lines += ["No external inputs: no verdict depends on a cited or assumed fact.", ""]
    for n, item in enumerate(inputs, 1):
        lines += _input_lines(n, item, bib)
    internal = internal_inputs(data)
    if internal:
        lines += ["## Inputs from other results of this paper", ""]
        lines += ["These are reconnected when the result they come from is verified.", ""]
        for n, item in enumerate(internal, len(inputs) + 1):
            lines += _input_lines(n, item, bib)
    lines += _uncovered_citations(data, bib)
    return "\n".join(lines).rstrip() + "\n"


def _uncovered_citations(data: ReportData, bib: dict[str, str]) -> list[str]:
    """Citations the blueprint planned as inputs that no recorded hypothesis stands for.

    A result with an issue or unfinished has no conditions yet, but its cited works still
    matter to a reader checking the paper by hand.
    """
    rows = []
    for view in data.views:
        covered = {c.source.key for c in view.record.conditions}
        for item in view.planned_inputs:
            if item.get("key") and item["key"] not in covered:
                rows.append((view, item))
    if not rows:
        return []
    lines = [
        "## Citations not (yet) stated as Lean hypotheses",
        "",
        "The plan lists these cited works as inputs, but no verified result assumes them:",
        "the result has an issue, is unfinished, or did without the citation.",
        "",
    ]
    for view, item in rows:
        text = plain_tex(item.get("bib_text") or bib.get(item["key"], "(not in the bibliography)"))
        where = f", {item['locator']}" if item.get("locator") else ""
        lines.append(
            f"- \\[{md.inline(item['key'])}\\]{md.inline(plain_tex(where))} — {md.inline(text)}; "
            f"cited in {md.inline(view.heading)} ({md.code(view.id)}), "
            f"{VERDICT_LABELS[verdict_key(view)]}"
        )
    return [*lines, ""]


def _input_lines(n: int, item: Input, bib: dict[str, str]) -> list[str]:
    c, source = item.condition, item.condition.source
    lines = [f"## {n}. {md.inline(c.name)} — {CONDITION_KINDS[c.kind]}", ""]
    if source.key:
        cited = plain_tex(bib.get(source.key, "(not in the bibliography)"))
        lines.append(f"- Cited work: \\[{md.inline(source.key)}\\] {md.inline(cited)}")
    if source.locator:
        lines.append(f"- Locator: {md.inline(source.locator)}")
    if source.quote:
        lines.append(f"- The paper says: {md.code(source.quote)}")
    if source.result:
        lines.append(f"- From result: {md.code(source.result)}")
    lines.append(f"- Lean hypothesis: {md.code(f'{c.name} : {c.lean_type}')}")
    step = f", {c.used_by}" if c.used_by else ""
    used = f"{item.view.heading} ({item.view.id}){step}"
    lines += [f"- Used in: {md.inline(used)}", "- [ ] checked", ""]
    return lines


def render_files_to_check(data: ReportData) -> str:
    lines = [
        "# Lean files to check",
        "",
        "A verdict is about the Lean statement, so read each statement below and compare it",
        "with the paper's. Proofs need no reading: Lean checked them.",
        "",
    ]
    statements = [v for v in data.views if v.record.evidence.lean_file]
    if not statements:
        lines += ["No Lean files were produced.", ""]
    for view in statements:
        lines += _statement_file(view)
    for view in data.views:
        issue = view.record.issue
        if issue is not None and issue.evidence.counterexample:
            lines += [
                f"## {md.code(issue.evidence.counterexample)}",
                "",
                f"- Claims: the statement of {md.inline(view.heading)} ({md.code(view.id)}) "
                "is false, by a counterexample.",
                "",
            ]
    return "\n".join(lines).rstrip() + "\n"


def _statement_file(view: ResultView) -> list[str]:
    evidence = view.record.evidence
    label = VERDICT_LABELS[verdict_key(view)]
    lines = [
        f"## {md.code(evidence.lean_file or '')}",
        "",
        f"- Claims to prove: {md.inline(view.heading)} ({md.code(view.id)}) — {label}",
        f"- Declaration: {md.code(evidence.lean_name or 'not recorded')}",
    ]
    if view.record.conditions:
        names = ", ".join(md.code(c.name) for c in view.record.conditions)
        lines.append(f"- Assumed hypotheses (see the worksheet): {names}")
    lines.append("")
    if view.lean_statement:
        lines += [md.block(view.lean_statement, "lean"), ""]
    else:
        lines += ["The declaration was not found in the file.", ""]
    return lines

"""report.sarif: SARIF 2.1.0 for code hosts (docs/design.md §9), clean under GitHub's rules.

One SARIF result per recorded issue, at the TeX file and line, ONE note summarising the
unfinished results (how many, for which reasons): hundreds of per-result notes would drown
the findings, and an unfinished result is not counted against the paper; and one result per
preflight diagnostic (inventory.json), at its file, line and column, rule `preflight/<code>`,
level error, warning or note as its severity. Rule ids are the issue classes, `unfinished`
and `preflight/<code>`; each rule carries a full description, help and a help URI,
as GitHub code scanning requires (`Sarif.Multitool validate --rule-kind "Sarif;Ghas"`).

Paths are relative to the folder of the paper's root TeX file, the `PAPERROOT` base, whose
`uri` is that folder when the run recorded it. A PDF has no lines: its results carry the page
as a property and no region.
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from pathlib import Path
from typing import Any, Final
from urllib.parse import quote

from paperlint import __version__
from paperlint.domain import IssueClass
from paperlint.preflight.model import Diagnostic
from paperlint.project import repository_url
from paperlint.records.results import Verdict
from paperlint.reports.describe import ISSUE_CLASSES, SIDES, issue_confirmation
from paperlint.reports.load import ReportData, ResultView
from paperlint.reports.summary import checked_counts, diagnostics

SARIF_SCHEMA: Final = "https://json.schemastore.org/sarif-2.1.0.json"
BASE_ID: Final = "PAPERROOT"
# The rules are explained in docs/sarif.md of paperlint's repository, whose URL is stated once,
# in pyproject's [project.urls] (paperlint.project).
HELP_PATH: Final = "/blob/main/docs/sarif.md"
UNFINISHED: Final = "unfinished"
PREFLIGHT: Final = "preflight/"  # + the diagnostic's code: one rule per code

HELP: Final[dict[str, str]] = {
    IssueClass.ERROR.value: (
        "Read the Lean counterexample named in the result: it proves the negation of the "
        "printed claim. Correct the statement (add the missing hypothesis or fix the bound)."
    ),
    IssueClass.PAPER_ARGUMENT_GAP.value: (
        "The conclusion may be true, but the cited step does not justify it. Supply the "
        "missing argument or a reference that covers it."
    ),
    IssueClass.PAPER_ASSUMPTION_GAP.value: (
        "A step needs a hypothesis the statement does not state. Add the hypothesis to the "
        "statement or show why it holds."
    ),
    IssueClass.EXPOSITION_GAP.value: (
        "The conclusion is true, but a range or case is not covered by the text. Extend the "
        "argument to the missing case."
    ),
    IssueClass.DOMAIN_CLARIFICATION.value: (
        "The objects admit more than one reading and the conclusion depends on which. Say "
        "which reading is meant."
    ),
    PREFLIGHT: (
        "Correct the source at the place shown (a duplicate or undefined label, an environment "
        "never closed, a missing input, ...). `paperlint preflight PAPER` lists every "
        "diagnostic; `--latex` takes the numbers from a LaTeX compile."
    ),
    UNFINISHED: (
        "Nothing is concluded about these results: no model or Lean was available, the budget "
        "ran out, or a proof was not found. Run `paperlint status DIR --why`, then "
        "`paperlint resume DIR`. An unfinished result is never counted against the paper."
    ),
}


def render_sarif(data: ReportData) -> dict[str, Any]:
    root_dir = _root_dir(data)
    pdf = data.inventory is not None and data.inventory.source_kind == "pdf"
    findings = [f for view in data.views if (f := _finding(view, root_dir, pdf)) is not None]
    summary = _unfinished_note(data, root_dir)
    if summary is not None:
        findings.append(summary)
    findings += [_diagnostic(d, root_dir, pdf) for d in diagnostics(data)]
    rules = sorted({f["ruleId"] for f in findings})
    for finding in findings:
        finding["ruleIndex"] = rules.index(finding["ruleId"])
    base: dict[str, Any] = {"description": {"text": "The folder of the paper's root TeX file."}}
    folder = _root_uri(data)
    if folder is not None:
        base["uri"] = folder
    driver: dict[str, Any] = {
        "name": "paperlint",
        "version": data.versions.get("paperlint", __version__),
        "rules": [_rule(rule_id) for rule_id in rules],
    }
    home = repository_url()
    if home is not None:
        driver["informationUri"] = home
    run: dict[str, Any] = {
        "tool": {"driver": driver},
        "originalUriBaseIds": {BASE_ID: base},
        "results": findings,
        "properties": {
            "replay": data.is_replay,
            "replayParts": data.replay_parts,
            # how the verified statements were compared with the gated ones (issue #25)
            "checkedCounts": checked_counts(data),
        },
    }
    if data.stale is not None:  # the paper changed since the check: said once for the run
        run["properties"]["stale"] = data.stale.banner()
    if data.is_replay:
        run["automationDetails"] = {
            "description": {"text": "Replay of recorded model and Lean responses."}
        }
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def _root_dir(data: ReportData) -> str:
    """The root file's folder, relative to the folder the inventory's paths start from."""
    return posixpath.dirname(data.inventory.root) if data.inventory else ""


def _root_uri(data: ReportData) -> str | None:
    """`file:///…/` of the root file's folder, when the run recorded which paper it checked."""
    if not data.paper_path or data.inventory is None:
        return None
    paper = Path(data.paper_path)
    if not paper.is_absolute():
        return None
    folder = paper.parent if paper.suffix else paper / _root_dir(data)
    return folder.as_uri().rstrip("/") + "/"


def _rule(rule_id: str) -> dict[str, Any]:
    if rule_id.startswith(PREFLIGHT):
        return _preflight_rule(rule_id)
    if rule_id == UNFINISHED:
        short = "Results with no verdict yet (not counted against the paper)."
        full = (
            "paperlint could not conclude on these results. Each keeps its reason in "
            "results.json; none is a finding about the paper."
        )
        level, name = "note", "NoVerdictYet"
    else:
        short = f"{rule_id}: {ISSUE_CLASSES[rule_id]}."
        full = f"{short} Recorded only after a second, independent review" + (
            " and a Lean counterexample." if rule_id == "ERROR" else "."
        )
        level = "error" if rule_id == "ERROR" else "warning"
        # a name must differ from the id, case aside (SARIF1001)
        name = "FalseConclusion" if rule_id == "ERROR" else rule_id.title().replace("_", "")
    return {
        "id": rule_id,
        "name": name,
        "shortDescription": {"text": short},
        "fullDescription": {"text": full},
        "help": {"text": HELP[rule_id], "markdown": HELP[rule_id]},
        **_help_uri(rule_id),
        "defaultConfiguration": {"level": level},
    }


def _preflight_rule(rule_id: str) -> dict[str, Any]:
    code = rule_id.removeprefix(PREFLIGHT)
    short = f"Preflight: {code.replace('-', ' ')} in the LaTeX source."
    full = (
        f"{short} paperlint's reading of the source found what LaTeX would complain about or "
        "number differently; it is about the text, not the proofs."
    )
    return {
        "id": rule_id,
        "name": "Preflight" + "".join(part.title() for part in re.split(r"[^A-Za-z0-9]+", code)),
        "shortDescription": {"text": short},
        "fullDescription": {"text": full},
        "help": {"text": HELP[PREFLIGHT], "markdown": HELP[PREFLIGHT]},
        **_help_uri(PREFLIGHT.rstrip("/")),
        "defaultConfiguration": {"level": "warning"},
    }


def _help_uri(rule_id: str) -> dict[str, str]:
    home = repository_url()
    return {"helpUri": f"{home}{HELP_PATH}#{rule_id.lower().replace('_', '-')}"} if home else {}


_LEVELS: Final = {"error": "error", "warning": "warning", "info": "note"}


def _diagnostic(diagnostic: Diagnostic, root_dir: str, pdf: bool) -> dict[str, Any]:
    """One preflight diagnostic at its file, line and column (line 1 when only the file is
    known: code scanning wants a region)."""
    line = None if pdf else diagnostic.line or 1
    location = _location(diagnostic.file, root_dir, line, None)
    if diagnostic.line is not None and diagnostic.column is not None and not pdf:
        location["physicalLocation"]["region"]["startColumn"] = diagnostic.column
    message = f"{diagnostic.message} [{diagnostic.code}]"
    result = _result(PREFLIGHT + diagnostic.code, _LEVELS[diagnostic.severity], message, location)
    key = f"{diagnostic.code}:{diagnostic.file}:{diagnostic.message}"
    result["partialFingerprints"] = {"paperlintDiagnostic/v1": key}
    result["properties"] = {"code": diagnostic.code, "severity": diagnostic.severity}
    return result


def _finding(view: ResultView, root_dir: str, pdf: bool) -> dict[str, Any] | None:
    record = view.record
    if record.verdict is not Verdict.ISSUE or record.issue is None:
        return None
    issue = record.issue
    message = (
        f"{view.heading}: {issue.class_.value} ({ISSUE_CLASSES[issue.class_.value]}). "
        f"{issue.summary} Side at fault: {SIDES[issue.side]}. {issue_confirmation(issue)}."
    )
    if view.stale:
        message = f"STALE, {view.stale}: this verdict is about the old text. {message}"
    level = "error" if issue.class_.value == "ERROR" else "warning"
    line = None if pdf else issue.location.line
    location = _location(issue.location.file, root_dir, line, issue.location.quote)
    result = _result(issue.class_.value, level, message, location)
    result["partialFingerprints"] = {"paperlintResultId/v1": view.id}
    result["properties"] = {
        "resultId": view.id,
        "number": view.number,
        "verdict": record.verdict.value,
    }
    if view.stale:
        result["properties"]["stale"] = view.stale
    if pdf and view.source is not None and view.source.span.page is not None:
        result["properties"]["page"] = view.source.span.page
    return result


def _unfinished_note(data: ReportData, root_dir: str) -> dict[str, Any] | None:
    """One note for every unfinished verdict-bearing result: how many, and why."""
    views = [
        v
        for v in data.views
        if v.record.verdict is Verdict.UNFINISHED
        and v.record.unfinished
        and v.record.verdict_bearing
    ]
    if not views:
        return None
    reasons = Counter(v.record.unfinished.reason.value for v in views if v.record.unfinished)
    listed = ", ".join(f"{n} {reason.replace('_', ' ')}" for reason, n in reasons.most_common())
    numbers = ", ".join(v.number or v.id for v in views[:40])
    more = f" and {len(views) - 40} more" if len(views) > 40 else ""
    message = (
        f"{len(views)} results are unfinished ({listed}): {numbers}{more}. "
        "Not counted against the paper; `paperlint status DIR --why` says why each is not done."
    )
    root = data.inventory.root if data.inventory else None
    pdf = data.inventory is not None and data.inventory.source_kind == "pdf"
    # at the root file's first line: the note is about the paper, not one place in it
    location = _location(root, root_dir, None if pdf else 1, None) if root else None
    result = _result(UNFINISHED, "note", message, location)
    result["partialFingerprints"] = {"paperlintUnfinished/v1": "summary"}
    result["properties"] = {
        "count": len(views),
        "reasons": dict(reasons),
        "results": [v.id for v in views],
    }
    return result


def _result(
    rule_id: str, level: str, message: str, location: dict[str, Any] | None
) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ruleId": rule_id,
        "level": level,
        "message": {"text": " ".join(message.split())},
    }
    if location is not None:
        result["locations"] = [location]
    return result


def _location(file: str, root_dir: str, line: int | None, quote_text: str | None) -> dict[str, Any]:
    """A location relative to PAPERROOT (the root file's folder); no region without a line."""
    relative = posixpath.relpath(file, root_dir) if root_dir else file
    physical: dict[str, Any] = {"artifactLocation": {"uri": quote(relative), "uriBaseId": BASE_ID}}
    if line is not None:
        region: dict[str, Any] = {"startLine": max(1, line)}
        if quote_text:
            region["snippet"] = {"text": quote_text}
        physical["region"] = region
    return {"physicalLocation": physical}

"""Issues (docs/design.md §5): a verbatim quote, a second agent's confirmation, and for ERROR a
counterexample whose statement is the engine's refutation of the gated statement.

Since the trusted checker (issue #25) the counterexample is judged like a proof: the checker's
run on the layout `modules.refutation_job` composes (its reference states the negation of the
statement the gate locked) is re-derived here with the same function as a verified result's.
A workspace from before the checker carries the counterexample file's own build and
`#print axioms` instead, read as before."""

from __future__ import annotations

from paperlint.lean.compose import module_text, refutation_statement, statement_text_exact
from paperlint.lean.verifier import STANDARD_AXIOMS
from paperlint.records import audits
from paperlint.records.results import Issue, IssueClass, ResultRecord
from paperlint.records.slots import counterexample as checked_counterexample
from paperlint.records.slots import review as review_of
from paperlint.records.slots import ruling as ruling_of
from paperlint.validate import leanfile
from paperlint.validate.checker_rules import (
    checker_claimed,
    kept_run,
    named_for,
    refuting_job,
    run_findings,
)
from paperlint.validate.context import Context
from paperlint.validate.gate_rules import gate_findings
from paperlint.validate.model import Check, Finding, safe_rel
from paperlint.validate.reconstruct import base_context, counterexample_module, rebuilt_findings
from paperlint.validate.verified_rules import parsed_axioms, unclean

# The engine records the line where the quote starts (`execute.locate_quote`); any occurrence
# of the quote may be the one meant.
QUOTE_SLACK_LINES = 0


def issue_findings(ctx: Context, record: ResultRecord) -> list[Finding]:
    issue = record.issue
    if issue is None:
        return [ctx.at(record, Check.ISSUE_MISSING, "verdict `issue` without an issue record")]
    found, gated = gate_findings(ctx, record)  # the issue is about the gated statement
    found.extend(_quote_findings(ctx, record, issue))
    found.extend(_ruling_findings(ctx, record, issue))
    found.extend(_review_findings(ctx, record, issue))
    if issue.class_ is IssueClass.ERROR:
        found.extend(counterexample_findings(ctx, record, issue, gated))
    return found


def _quote_findings(ctx: Context, record: ResultRecord, issue: Issue) -> list[Finding]:
    location = issue.location
    rel = safe_rel(location.file)
    text = ctx.snap.text(f"source/{rel}") if rel else None
    if text is None:
        message = f"the issue's file {location.file!r} is not in the kept source"
        return [ctx.at(record, Check.ISSUE_QUOTE, message)]
    lines = text.count("\n") + 1
    quote = location.quote
    if not 1 <= location.line <= lines:
        message = f"line {location.line} is outside {location.file} ({lines} lines)"
        return [ctx.at(record, Check.ISSUE_QUOTE, message)]
    starts = _occurrences(text, quote) if quote.strip() else []
    if not starts:
        message = f"the quote does not occur verbatim in {location.file}: {quote[:80]!r}"
        return [ctx.at(record, Check.ISSUE_QUOTE, message)]
    if all(abs(line - location.line) > QUOTE_SLACK_LINES for line in starts):
        message = f"the quote is at line {starts[0]} of {location.file}, not near {location.line}"
        return [ctx.at(record, Check.ISSUE_QUOTE, message)]
    return []


def _words(text: object) -> list[str]:
    return str(text or "").split()


def _occurrences(text: str, quote: str) -> list[int]:
    lines: list[int] = []
    index = text.find(quote)
    while index >= 0:
        lines.append(text.count("\n", 0, index) + 1)
        index = text.find(quote, index + 1)
    return lines


def _ruling_findings(ctx: Context, record: ResultRecord, issue: Issue) -> list[Finding]:
    """The issue checker's ruling on disk must say what the record says."""
    path = f"{ctx.audit_dir(record.id)}/issue.json"
    ruling = ctx.snap.json(path)
    if ruling is None:
        return [ctx.at(record, Check.ISSUE_RULING_MISMATCH, f"no issue ruling at {path}")]
    stored = ruling_of(record.work)
    copy = stored.model_dump(mode="json") if stored else None
    same = (
        copy == {k: v for k, v in ruling.items() if k != "schema"}
        and ruling.get("schema") == audits.ISSUE_RULING
        and ruling.get("is_issue") is True
        and ruling.get("issue_class") == issue.class_.value
        and ruling.get("side") == issue.side
        # `revise` re-reads a reflowed quote from the new text: same words, new line breaks
        and _words(ruling.get("quote")) == _words(issue.location.quote)
        and str(ruling.get("explanation", ""))[:1000] == issue.summary
    )
    if same:
        return []
    message = "the issue checker's ruling differs from the record (class, side, quote, summary)"
    return [ctx.about(record, path, Check.ISSUE_RULING_MISMATCH, message)]


def _review_findings(ctx: Context, record: ResultRecord, issue: Issue) -> list[Finding]:
    evidence = issue.evidence
    review = ctx.snap.json(evidence.review)
    if evidence.review is None or review is None:
        message = f"no confirming review record at {evidence.review}"
        return [ctx.at(record, Check.ISSUE_REVIEW_MISSING, message)]
    path = evidence.review
    found: list[Finding] = []
    if review.get("schema") != audits.REVIEW or review.get("confirms") is not True:
        message = "the review record does not confirm the issue"
        found.append(ctx.about(record, path, Check.ISSUE_NOT_CONFIRMED, message))
    stored = review_of(record.work)
    copy = stored.model_dump(mode="json") if stored else None
    if copy != {k: review.get(k) for k in ("confirms", "explanation")}:
        message = "the review file differs from results.json's copy of the review"
        found.append(ctx.about(record, path, Check.ISSUE_REVIEW_MISMATCH, message))
    reviewer, raiser = review.get("reviewer"), review.get("raised_by")
    if (
        not reviewer
        or not raiser
        or reviewer == raiser
        or evidence.confirmed_by != reviewer
        or evidence.raised_by != raiser
        or evidence.confirmed_by == evidence.raised_by
    ):
        message = f"confirmed by {evidence.confirmed_by!r}, raised by {evidence.raised_by!r}; "
        message += f"the review says reviewer {reviewer!r}, raised by {raiser!r}"
        found.append(ctx.about(record, path, Check.ISSUE_SELF_CONFIRMED, message))
    return found


def counterexample_findings(
    ctx: Context, record: ResultRecord, issue: Issue, gated: str | None
) -> list[Finding]:
    found: list[Finding] = []
    path = issue.evidence.counterexample
    text = ctx.snap.text(path)
    if path is None or text is None:
        message = f"ERROR needs a compiled Lean counterexample; none at {path}"
        return [*found, ctx.at(record, Check.COUNTEREXAMPLE_MISSING, message)]
    name = f"{record.evidence.lean_name or ''}_counterexample"
    cex = checked_counterexample(record.work)
    if (cex is not None and cex.checker is not None) or checker_claimed(ctx):
        found.extend(_checked_findings(ctx, record, path, gated))
    else:  # a workspace from before the trusted checker: the file's own build
        if gated is not None:
            rebuilt = counterexample_module(ctx, record, gated)
            found.extend(rebuilt_findings(ctx, record, path, rebuilt))
        found.extend(_check_record_findings(ctx, record, path, name))
    if cex is None or not (cex.accepted and cex.axioms_ok) or cex.file != path:
        message = "the engine did not record this counterexample as compiled with standard axioms"
        found.append(ctx.at(record, Check.COUNTEREXAMPLE_UNCLEAN, message))
    found.extend(
        ctx.about(record, f.file, Check.HYGIENE, f"{f.rule.value}: {f.message}", f.line)
        for f in leanfile.hygiene_findings(path, ctx.snap.files)
    )
    for item in leanfile.skeleton_findings(ctx.header, text, ctx.gated, file=path):
        found.append(ctx.about(record, path, Check.DEFINITION_CHANGED, item.message, item.line))
    matches = leanfile.named(text, name)
    expected = refutation_statement(gated, name) if gated else None
    if len(matches) != 1 or expected is None:
        message = f"`{name}` must be declared exactly once, refuting the gated statement"
        return [*found, ctx.about(record, path, Check.COUNTEREXAMPLE_NOT_REFUTATION, message)]
    written = statement_text_exact(leanfile.source_of(text, matches[0]))
    if leanfile.squash(written) != leanfile.squash(expected):
        message = f"the counterexample proves `{written[:120]}`, not `{expected[:120]}`"
        line = matches[0].keyword_token.line
        found.append(ctx.about(record, path, Check.COUNTEREXAMPLE_NOT_REFUTATION, message, line))
    return found


def _checked_findings(
    ctx: Context, record: ResultRecord, path: str, gated: str | None
) -> list[Finding]:
    """The trusted checker's run on the counterexample, re-derived (issue #25): the layout
    recomposed from the records and the judged declaration, the run of exactly it, no
    finding, the gate's lock; the file a referee reads is that declaration in its context."""
    cex = checked_counterexample(record.work)
    if cex is None or cex.checker is None or cex.declaration is None:
        message = "the run used the trusted checker; this counterexample has no checker run"
        return [ctx.at(record, Check.CHECKER_MISSING, message)]
    found: list[Finding] = []
    if gated is not None:
        base = base_context(ctx, record)
        expected = module_text(base, cex.declaration) if base is not None else None
        found.extend(rebuilt_findings(ctx, record, path, expected))
    if cex.checker not in record.evidence.hashes:
        message = f"{cex.checker} is not among the hashed evidence"
        found.append(ctx.at(record, Check.COUNTEREXAMPLE_UNCLEAN, message))
    run = kept_run(ctx, record, cex.checker)
    if isinstance(run, Finding):
        return [*found, run]
    job = refuting_job(ctx, record, cex.declaration, named_for(ctx, record, run))
    if job is None:
        message = "the records compose no refutation layout to compare the checker's run with"
        return [*found, ctx.about(record, cex.checker, Check.CHECKER_STALE, message)]
    return [*found, *run_findings(ctx, record, cex.checker, run, job, derived=True)]


def check_record_path(counterexample: str) -> str:
    return counterexample.removesuffix(".lean") + ".check.json"


def _check_record_findings(
    ctx: Context, record: ResultRecord, path: str, name: str
) -> list[Finding]:
    check_path = check_record_path(path)
    data = ctx.snap.json(check_path)
    if data is None:
        message = f"no check record {check_path} for the counterexample"
        return [ctx.at(record, Check.COUNTEREXAMPLE_UNCLEAN, message)]
    problems = unclean(data)
    if data.get("file_sha256") != ctx.snap.sha256(path):
        problems.append("the check was of other bytes than the file")
    axioms = (data.get("axioms") or {}).get(name)
    if not isinstance(axioms, list) or not set(axioms) <= STANDARD_AXIOMS:
        problems.append(f"axioms of {name}: {axioms}")
    elif set(parsed_axioms(data, name) or ("<none>",)) != set(axioms):
        problems.append(f"Lean's recorded output does not give axioms {axioms} for {name}")
    return [
        ctx.about(record, check_path, Check.COUNTEREXAMPLE_UNCLEAN, problem) for problem in problems
    ]

"""review_issue — the auditor gives a second, independent ruling on the checker's issue; only a
confirmed ruling with a verbatim quote becomes an `issue` verdict."""

from __future__ import annotations

from paperlint.agents.inputs import ReviewerInputs, SuspectedIssue
from paperlint.agents.outputs import ReviewOutput
from paperlint.domain import IssueClass, Role
from paperlint.engine import prompts
from paperlint.engine.actions import Action, ActionKind
from paperlint.engine.context import EngineContext
from paperlint.engine.policy import Policy
from paperlint.engine.steps.base import (
    Given,
    Step,
    StepOutcome,
    View,
    evolve,
    gated,
    reopen,
    unfinished,
)
from paperlint.engine.steps.effects import ask, locate_quote, prompt_context, sha, write_json
from paperlint.records import audits
from paperlint.records.results import (
    Issue,
    IssueEvidence,
    IssueLocation,
    ResultRecord,
    Stage,
    UnfinishedReason,
    Verdict,
)
from paperlint.records.slots import Reviewed, draft_of, drafting, suspected, suspicion_of
from paperlint.records.slots import counterexample as checked_counterexample
from paperlint.records.slots import review as issue_review
from paperlint.records.slots import ruling as issue_ruling


class ReviewOutcome(StepOutcome):
    review: ReviewOutput
    record: str  # audits/<id>/issue-review.json
    quote_file: str | None = None
    quote_line: int | None = None
    lean_file: str | None = None  # the gated statement the issue is about
    hashes: dict[str, str] = {}


def inputs(record: ResultRecord, view: View) -> Given[ReviewerInputs]:
    ctx, results = view.ctx, view.results
    ruling = issue_ruling(record.work)
    cex, raised = checked_counterexample(record.work), suspicion_of(record.work)
    cex_text = (
        (ctx.ws.root / cex.file).read_text(encoding="utf-8") if cex and cex.accepted else None
    )
    prompt = ReviewerInputs(
        **prompts.paper_context(ctx, record, results),
        proof=prompts.proof_text(ctx, record),
        steps=prompts.steps(record),
        suspected_issue=SuspectedIssue(
            raised_by="issue_checker",
            step=raised.obligation if raised else None,
            description=ruling.explanation if ruling else "",
            issue_class=ruling.issue_class if ruling else None,
            quote=ruling.quote if ruling else "",
        ),
        lean_context=prompt_context(ctx, results, record),
        counterexample=prompts.clip(cex_text, prompts.MAX_LEAN) if cex_text else None,
        lean_feedback="the counterexample compiles cleanly with standard axioms"
        if cex and cex.accepted
        else "",
    )
    return Given(view.action, prompt)


def run(ctx: EngineContext, record: ResultRecord, given: Given[ReviewerInputs]) -> ReviewOutcome:
    review = ask(ctx, "reviewer", Role.AUDITOR, given.action, given.prompt, ReviewOutput)
    folder = ctx.ws.audit_dir(record.id)
    path = write_json(
        ctx,
        folder / "issue-review.json",
        audits.enveloped(
            audits.REVIEW,
            review,
            reviewer=Role.AUDITOR.value,
            raised_by=Role.ISSUE_CHECKER.value,
        ),
    )
    ruling = issue_ruling(record.work)
    quote_file, quote_line = locate_quote(ctx, record, ruling.quote if ruling else "")
    draft_file = folder / f"draft-{drafting(record.work).rounds}.lean"
    hashes = {path: sha(ctx.ws.root / path)}
    if draft_file.is_file():
        hashes[ctx.ws.rel(draft_file)] = sha(draft_file)
    return ReviewOutcome(
        action=given.action,
        review=review,
        record=path,
        quote_file=quote_file,
        quote_line=quote_line,
        lean_file=ctx.ws.rel(draft_file) if draft_file.is_file() else None,
        hashes=hashes,
    )


def apply(record: ResultRecord, outcome: ReviewOutcome, policy: Policy) -> ResultRecord:
    review = outcome.review
    ruling = issue_ruling(record.work)
    reviewed = Reviewed(on=suspicion_of(record.work), review=review)
    new = reopen(record.with_work(record.work.with_slot(reviewed)))
    if ruling is None:  # plan() reviews only a ruling; a record without one is not trusted
        return unfinished(
            new, UnfinishedReason.ISSUE_NOT_CONFIRMED, "no ruling to review", stage=Stage.DONE
        )
    if not review.confirms:
        return unfinished(
            new,
            UnfinishedReason.ISSUE_NOT_CONFIRMED,
            f"the second review did not confirm: {review.explanation[:300]}",
            stage=Stage.DONE,
        )
    error = ruling.issue_class is IssueClass.ERROR
    cex = checked_counterexample(record.work)
    issue = Issue(
        class_=ruling.issue_class or IssueClass.PAPER_ARGUMENT_GAP,
        side=ruling.side,
        location=IssueLocation(
            file=outcome.quote_file or "", line=outcome.quote_line or 0, quote=ruling.quote
        ),
        summary=ruling.explanation[:1000],
        evidence=IssueEvidence(
            counterexample=cex.file if cex and error else None,
            confirmed_by=Role.AUDITOR.value,
            raised_by=Role.ISSUE_CHECKER.value,
            review=outcome.record,
        ),
    )
    evidence = evolve(
        record.evidence,
        hashes={**record.evidence.hashes, **outcome.hashes},
        lean_file=outcome.lean_file,
        lean_name=drafted.lean_name if (drafted := draft_of(record.work)) else None,
    )
    return evolve(new, stage=Stage.DONE, verdict=Verdict.ISSUE, issue=issue, evidence=evidence)


def ready(record: ResultRecord, policy: Policy) -> Action | None:
    """A ruling that the suspicion is an issue, not yet reviewed; an ERROR only once its
    counterexample compiled with standard axioms."""
    work, ruling = record.work, issue_ruling(record.work)
    if not gated(record) or suspected(record) is None or issue_review(work) is not None:
        return None
    if ruling is None or not ruling.is_issue:
        return None
    if ruling.issue_class == "ERROR":
        check = checked_counterexample(work)
        if check is None or not (check.accepted and check.axioms_ok):
            return None
    return Action(kind=ActionKind.REVIEW_ISSUE, result=record.id)


STEP = Step(
    kind=ActionKind.REVIEW_ISSUE,
    role=Role.AUDITOR,
    stage=Stage.DONE,
    ready=ready,
    inputs=inputs,
    run=run,
    apply=apply,
)

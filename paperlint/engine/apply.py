"""Apply an action's outcome to the records: the pure state transition.

Verdicts are decided here, by the rules of design §5, from evidence already on disk. No model
output reaches a verdict except through Lean evidence the audit accepted (verified) or a
confirmed ruling with a located quote (issue; ERROR also needs a compiled counterexample).
"""

from __future__ import annotations

from typing import TypeVar

from paperlint.agents.outputs import DraftCondition
from paperlint.engine.actions import ActionKind, Failure, Outcome
from paperlint.engine.plan import Policy
from paperlint.records.results import (
    Condition,
    ConditionKind,
    ConditionSource,
    Evidence,
    Issue,
    IssueClass,
    IssueEvidence,
    IssueLocation,
    ResultRecord,
    Results,
    Stage,
    Unfinished,
    UnfinishedReason,
    Verdict,
)
from paperlint.records.work import FailedAttempt, Obligation, Suspicion

MAX_FAILURES_KEPT = 5
T = TypeVar("T")


def apply(results: Results, outcome: Outcome, policy: Policy) -> Results:
    """Return new records with `outcome` applied to its result."""
    updated = [
        _apply_one(r, outcome, policy) if r.id == outcome.action.result else r
        for r in results.results
    ]
    return results.model_copy(update={"results": updated})


def _apply_one(record: ResultRecord, outcome: Outcome, policy: Policy) -> ResultRecord:
    if outcome.failure is not None:
        return _failed(record, outcome)
    handlers = {
        ActionKind.PLAN: _planned,
        ActionKind.DRAFT: _drafted,
        ActionKind.GATE: _gated,
        ActionKind.PROVE: _proved,
        ActionKind.CHECK_ISSUE: _issue_checked,
        ActionKind.REVIEW_ISSUE: _reviewed,
        ActionKind.AUDIT: _audited,
    }
    return handlers[outcome.action.kind](record, outcome, policy)


def unfinished(
    record: ResultRecord, reason: UnfinishedReason, detail: str, *, stage: Stage | None = None
) -> ResultRecord:
    return record.model_copy(
        update={
            "stage": stage or record.stage,
            "verdict": Verdict.UNFINISHED,
            "unfinished": Unfinished(reason=reason, detail=detail),
        }
    )


def _failed(record: ResultRecord, outcome: Outcome) -> ResultRecord:
    reason = (
        {
            Failure.MODEL_UNAVAILABLE: UnfinishedReason.MODEL_UNAVAILABLE,
            Failure.INVALID_MODEL_OUTPUT: UnfinishedReason.INVALID_MODEL_OUTPUT,
            Failure.LEAN_UNAVAILABLE: UnfinishedReason.LEAN_UNAVAILABLE,
            Failure.BUDGET_EXHAUSTED: UnfinishedReason.BUDGET_EXHAUSTED,
        }[outcome.failure]
        if outcome.failure
        else UnfinishedReason.INTERRUPTED
    )
    done = Stage.DONE if outcome.failure is Failure.INVALID_MODEL_OUTPUT else None
    return unfinished(record, reason, outcome.detail, stage=done)


def _reopen(record: ResultRecord, **work: object) -> ResultRecord:
    """Progress was made: clear a soft `unfinished` left by an earlier stop."""
    return record.model_copy(
        update={"verdict": None, "unfinished": None, "work": record.work.model_copy(update=work)}
    )


def _planned(record: ResultRecord, outcome: Outcome, policy: Policy) -> ResultRecord:
    return _reopen(record, plan=outcome.plan).model_copy(update={"stage": Stage.PLANNED})


def _drafted(record: ResultRecord, outcome: Outcome, policy: Policy) -> ResultRecord:
    rounds = record.work.draft_rounds + 1
    new = _reopen(
        record,
        draft=outcome.draft,
        draft_rounds=rounds,
        draft_feedback=None if outcome.draft_ok else outcome.draft_feedback,
    )
    if outcome.draft_ok:
        return new.model_copy(update={"stage": Stage.DRAFTED})
    if rounds >= policy.draft_rounds:
        return unfinished(
            new,
            UnfinishedReason.TRANSLATION_BLOCKED,
            f"the drafted statement did not type-check after {rounds} rounds: "
            f"{outcome.draft_feedback[:300]}",
            stage=Stage.DONE,
        )
    return new


def _gated(record: ResultRecord, outcome: Outcome, policy: Policy) -> ResultRecord:
    gate = need(outcome.gate, "gate")
    gates = [*record.work.gates, gate]
    evidence = record.evidence.model_copy(update={"gate": outcome.gate_record})
    if gate.decision == "PASS" and outcome.fingerprint:
        obligations = _obligations_of(record, outcome)
        new = _reopen(record, gates=gates, fingerprint=outcome.fingerprint, obligations=obligations)
        evidence = evidence.model_copy(update={"statement_fingerprint": outcome.fingerprint})
        statement_only = not record.verdict_bearing
        if statement_only and record.work.draft is not None:
            # a gated definition is an input: its Lean text is the evidence a reader checks
            evidence = evidence.model_copy(
                update={"lean_file": outcome.lean_file, "lean_name": record.work.draft.lean_name}
            )
        stage = Stage.DONE if statement_only else Stage.GATED
        return new.model_copy(update={"stage": stage, "evidence": evidence})
    reasons = "; ".join(gate.reasons) or "blocked without a stated reason"
    new = _reopen(record, gates=gates, draft_feedback=f"gate blocked: {reasons}")
    new = new.model_copy(update={"stage": Stage.GATE_BLOCKED, "evidence": evidence})
    if record.work.draft_rounds >= policy.draft_rounds:
        return unfinished(
            new, UnfinishedReason.STATEMENT_NOT_APPROVED, reasons[:400], stage=Stage.DONE
        )
    return new


def _obligations_of(record: ResultRecord, outcome: Outcome) -> list[Obligation]:
    draft = record.work.draft
    if draft is None or not record.verdict_bearing:
        return []
    steps = [Obligation(id=o.id, skeleton=o.lean) for o in draft.obligations if o.id != "main"]
    return [*steps, Obligation(id="main", skeleton=draft.statement)]


def _proved(record: ResultRecord, outcome: Outcome, policy: Policy) -> ResultRecord:
    check = need(outcome.proof, "proof check")
    ob_id = outcome.action.obligation
    obligations = []
    suspicion = record.work.suspicion
    for ob in record.work.obligations:
        if ob.id != ob_id:
            obligations.append(ob)
            continue
        attempts = ob.attempts + 1
        if check.accepted:
            ob = ob.model_copy(
                update={"attempts": attempts, "status": "proved", "proof": outcome.accepted_text}
            )
        else:
            failure = FailedAttempt(
                attempt=outcome.action.attempt,
                model=outcome.action.model or "",
                file=check.file,
                feedback=check.feedback[:2000],
            )
            failures = [*ob.failures, failure][-MAX_FAILURES_KEPT:]
            gave_up = outcome.prover is not None and outcome.prover.gives_up
            exhausted = attempts >= policy.prover_attempts or gave_up
            ob = ob.model_copy(
                update={
                    "attempts": attempts,
                    "failures": failures,
                    "status": "failed" if exhausted else "open",
                }
            )
            if exhausted:
                why = (outcome.prover.suspected_problem if outcome.prover else None) or (
                    f"obligation {ob_id} not proved after {attempts} attempts"
                )
                suspicion = Suspicion(obligation=ob_id, reason=why)
        obligations.append(ob)
    fresh = suspicion is not record.work.suspicion
    cleared: dict[str, object] = {"ruling": None, "review": None, "counterexample": None}
    new = _reopen(
        record, obligations=obligations, suspicion=suspicion, **(cleared if fresh else {})
    )
    return new.model_copy(update={"stage": Stage.PROVING})


def _issue_checked(record: ResultRecord, outcome: Outcome, policy: Policy) -> ResultRecord:
    ruling = need(outcome.ruling, "ruling")
    suspicion = record.work.suspicion
    if suspicion is None and ruling.is_issue:
        ambiguity = record.work.draft.ambiguity if record.work.draft else ""
        suspicion = Suspicion(obligation=None, reason=f"ambiguity: {ambiguity}")
    new = _reopen(record, ruling=ruling, suspicion=suspicion, counterexample=outcome.counterexample)
    hashes = {**record.evidence.hashes, **outcome.hashes}  # the ruling and any counterexample
    new = new.model_copy(update={"evidence": new.evidence.model_copy(update={"hashes": hashes})})
    if not ruling.is_issue:
        if record.work.suspicion is None:
            return new  # the ambiguity does not matter: go on proving
        return unfinished(
            new,
            UnfinishedReason.BUDGET_EXHAUSTED,
            f"{record.work.suspicion.reason}; the issue checker found no problem in the step",
            stage=Stage.DONE,
        )
    problem = _unconfirmable(outcome)
    if problem:
        return unfinished(new, UnfinishedReason.ISSUE_NOT_CONFIRMED, problem, stage=Stage.DONE)
    return new


def _unconfirmable(outcome: Outcome) -> str | None:
    ruling = outcome.ruling
    if ruling is None or ruling.issue_class is None:
        return "the issue checker gave no issue class"
    if outcome.quote_line is None:
        return f"the quoted text does not occur verbatim in the source: {ruling.quote[:120]!r}"
    if ruling.issue_class == "ERROR":
        cex = outcome.counterexample
        if cex is None or not (cex.accepted and cex.axioms_ok):
            detail = cex.detail if cex else "no counterexample given"
            return f"ERROR needs a compiled Lean counterexample: {detail}"
    return None


def _reviewed(record: ResultRecord, outcome: Outcome, policy: Policy) -> ResultRecord:
    review = need(outcome.review, "review")
    ruling = need(record.work.ruling, "ruling")
    new = _reopen(record, review=review)
    if not review.confirms:
        return unfinished(
            new,
            UnfinishedReason.ISSUE_NOT_CONFIRMED,
            f"the second review did not confirm: {review.explanation[:300]}",
            stage=Stage.DONE,
        )
    issue = Issue(
        class_=IssueClass(ruling.issue_class or "PAPER_ARGUMENT_GAP"),
        side=ruling.side,
        location=IssueLocation(
            file=outcome.quote_file or "", line=outcome.quote_line or 0, quote=ruling.quote
        ),
        summary=ruling.explanation[:1000],
        evidence=IssueEvidence(
            counterexample=record.work.counterexample.file
            if record.work.counterexample and ruling.issue_class == "ERROR"
            else None,
            confirmed_by="auditor",
            raised_by="issue_checker",
            review=outcome.review_record,
        ),
    )
    hashes = {**record.evidence.hashes, **outcome.hashes}
    evidence = record.evidence.model_copy(
        update={
            "hashes": hashes,
            "lean_file": outcome.lean_file,  # the gated statement the issue is about
            "lean_name": record.work.draft.lean_name if record.work.draft else None,
        }
    )
    return new.model_copy(
        update={"stage": Stage.DONE, "verdict": Verdict.ISSUE, "issue": issue, "evidence": evidence}
    )


def _audited(record: ResultRecord, outcome: Outcome, policy: Policy) -> ResultRecord:
    final = need(outcome.final, "final audit")
    new = _reopen(record, final=final, audit=outcome.audit)
    evidence = Evidence(
        lean_file=outcome.lean_file,
        lean_name=record.work.draft.lean_name if record.work.draft else None,
        statement_fingerprint=record.work.fingerprint,
        gate=record.evidence.gate,
        final_check=final.record,
        axioms=final.axioms,
        audit=outcome.audit_record,
        hashes={**record.evidence.hashes, **outcome.hashes},
    )
    new = new.model_copy(update={"evidence": evidence, "stage": Stage.AUDITED})
    problems = _audit_problems(outcome)
    if problems:
        return unfinished(new, UnfinishedReason.AUDIT_FAILED, problems, stage=Stage.DONE)
    conditions = [
        to_condition(c) for c in (record.work.draft.conditions if record.work.draft else [])
    ]
    verdict = Verdict.VERIFIED_CONDITIONAL if conditions else Verdict.VERIFIED_UNCONDITIONAL
    return new.model_copy(
        update={"stage": Stage.DONE, "verdict": verdict, "conditions": conditions}
    )


def _audit_problems(outcome: Outcome) -> str:
    final = outcome.final
    problems: list[str] = []
    if final is None:
        return "no final check"
    if not final.clean:
        problems.append(f"final build not clean: {final.detail[:200]}")
    if not final.axioms_ok:
        problems.append(f"axioms outside the standard three: {final.axioms}")
    if final.hygiene_findings:
        problems.append("hygiene: " + "; ".join(final.hygiene_findings[:3]))
    if not final.fingerprint_ok:
        problems.append("the statement's fingerprint differs from the gated one")
    audit = outcome.audit
    if audit is None or audit.decision != "PASS" or not audit.route_followed:
        findings = "; ".join(audit.findings[:3]) if audit else "no audit"
        problems.append(f"final audit did not pass: {findings}")
    return " | ".join(problems)


def to_condition(c: DraftCondition) -> Condition:
    return Condition(
        name=c.name,
        lean_type=c.lean_type,
        kind=ConditionKind(c.kind),
        source=ConditionSource(key=c.key, locator=c.locator, result=c.result, quote=c.quote),
        used_by=c.used_by,
    )


def need(value: T | None, what: str) -> T:
    if value is None:
        raise ValueError(f"outcome lacks its {what}")  # an engine bug, not bad input
    return value

"""gate — the statement is reviewed before any proof search; a vacuous statement is blocked."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict

from paperlint.agents.inputs import GateInputs
from paperlint.agents.outputs import DraftOutput, GateOutput
from paperlint.domain import INPUT_KINDS, SECOND_DRAFT_FILE, Role
from paperlint.engine import prompts
from paperlint.engine.actions import Action, ActionKind
from paperlint.engine.context import EngineContext
from paperlint.engine.policy import Policy
from paperlint.engine.steps import second_draft
from paperlint.engine.steps.base import (
    Given,
    Step,
    StepOutcome,
    View,
    evolve,
    reopen,
    statement_only,
    unfinished,
)
from paperlint.engine.steps.check_issue import compile_counterexample
from paperlint.engine.steps.effects import (
    ask,
    base_context,
    check_records,
    prompt_context,
    trusted,
    write_json,
)
from paperlint.faithful.check import check_statement
from paperlint.faithful.policy import Decision, Next, decide
from paperlint.lean.compose import context_for, fingerprint
from paperlint.lean.trusted import locked_hash
from paperlint.lean.verifier import LeanContext
from paperlint.records import audits
from paperlint.records.events import LeanCheckEvent
from paperlint.records.faithfulness import FILE as FAITHFUL_FILE
from paperlint.records.faithfulness import FaithfulnessEvidence, round_file
from paperlint.records.faithfulness_brief import gate_brief
from paperlint.records.layout import safe_name
from paperlint.records.modules import check_job
from paperlint.records.results import ResultRecord, Stage, UnfinishedReason
from paperlint.records.slots import (
    Gated,
    draft_of,
    drafting,
    gating,
    plan_of,
    proving,
    sent_back,
)
from paperlint.records.work import CounterexampleCheck, Obligation, Suspicion
from paperlint.validate.texhash import gate_tex
from paperlint.validate.vacuity import probe_draft


@dataclass(frozen=True)
class GateStepInputs(Given[GateInputs]):
    draft: DraftOutput | None
    probe_context: LeanContext  # what the vacuity probe elaborates on
    base: LeanContext  # the result's own context: where the gated statement is elaborated
    second: DraftOutput | None = None  # the independent second draft (#15), when usable
    lean_name: str = "result"
    module: str = ""  # the result's Lean module, workspace-relative
    records: dict[str, ResultRecord] = field(default_factory=dict)  # it and its dependencies


class Vacuity(BaseModel):
    """Lean refuted the statement from its hypotheses alone: it proves nothing."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    reason: str


class GateOutcome(StepOutcome):
    review: GateOutput  # the gate's own answer
    vacuity: Vacuity | None = None
    refutation: Vacuity | None = None  # Lean refuted the statement itself (#15): redraft
    record: str  # audits/<id>/gate-N.json
    fingerprint: str | None = None  # of the statement, when the decision is PASS
    lean_file: str | None = None  # the type-checked draft
    # Issue #15: what the faithfulness evidence and the gate's ruling on it decided; the
    # second draft when the gate ruled it the paper's; the probe's counterexample, compiled,
    # when the gate holds a statement Lean refutes faithful (an ERROR issue starts).
    faithful: Decision | None = None
    gated_second: DraftOutput | None = None
    counterexample: CounterexampleCheck | None = None


def decision(review: GateOutput, vacuity: Vacuity | None) -> GateOutput:
    """The gate's decision: its review, blocked if Lean showed the statement vacuous."""
    if review.decision != "PASS" or vacuity is None:
        return review
    return evolve(review, decision="BLOCK", reasons=[*review.reasons, vacuity.reason])


def inputs(record: ResultRecord, view: View) -> GateStepInputs:
    ctx, results = view.ctx, view.results
    draft = draft_of(record.work)
    prompt = GateInputs(
        **prompts.paper_context(ctx, record, results),
        draft=draft,
        lean_context=prompt_context(ctx, results, record),
        lean_feedback="the statement type-checks (with `sorry` proofs)",
    )
    base = base_context(ctx, results, record)
    context = base
    if draft is not None and record.kind in INPUT_KINDS:
        context = context_for(
            ctx.settings.header, [*context.accepted, *draft.definitions, draft.statement]
        )
    second = second_draft.state(record).draft if record.kind not in INPUT_KINDS else None
    if second is not None:  # both drafts' definitions, for the equivalence ladder
        extra = [d for d in second.definitions if d not in context.accepted]
        context = context_for(ctx.settings.header, [*context.accepted, *extra])
    return GateStepInputs(
        view.action,
        prompt,
        draft,
        context,
        base,
        second=second,
        lean_name=ctx.lean_names.get(record.id, "result"),
        module=ctx.modules.get(record.id, f"lean/{safe_name(record.id)}.lean"),
        records=check_records(ctx, results, record),
    )


def run(ctx: EngineContext, record: ResultRecord, given: GateStepInputs) -> GateOutcome:
    action, draft = given.action, given.draft
    # Issue #15: Lean's faithfulness checks run before the review, so the gate rules on them.
    evidence = None
    if draft is not None and record.kind not in INPUT_KINDS:
        evidence = _faithfulness(ctx, record, given, draft)
    prompt = given.prompt
    if evidence is not None:
        prompt = evolve(prompt, faithfulness=gate_brief(evidence))
    review = ask(ctx, "gate", Role.GATE, action, prompt, GateOutput)
    faithful = decide(evidence, review.ruling) if evidence is not None else None
    second = given.second if faithful is not None and faithful.next is Next.USE_SECOND else None
    chosen = second or draft
    vacuity = None
    if review.decision == "PASS" and chosen is not None:
        vacuity = _probe_vacuity(ctx, record, given, chosen)
    refutation = _refutation(faithful)
    lock, unbuilt = None, None
    if review.decision == "PASS" and chosen is not None and not (vacuity or refutation):
        lock, unbuilt = _lock(ctx, record, given, chosen)
    decided = decision(review, vacuity or refutation or unbuilt)
    passed = chosen if chosen is not None and decided.decision == "PASS" else None
    fp = fingerprint(passed.statement) if passed else None
    cex = _compiled(ctx, record, given, passed, faithful, lock)
    data = {
        "schema": audits.GATE,
        "result": record.id,
        "round": action.attempt,
        "decision": decided.decision,
        "review": decided.model_dump(mode="json"),
        "statement": chosen.statement if chosen else None,
        "statement_fingerprint": fp,
        # Before #25 the warm REPL's `#paperlint_statement`; the checker's lock replaces it.
        "elaboration": None,
        "reference": lock if passed else None,
        "tex": gate_tex(
            record.id,
            ctx.deps.get(record.id, []),
            {r.id: r.statement for r in ctx.inventory.results},
        ),
        "faithfulness": _faithfulness_summary(ctx, record, faithful, second, cex),
    }
    path = write_json(ctx, ctx.ws.audit_dir(record.id) / f"gate-{action.attempt}.json", data)
    folder = ctx.ws.audit_dir(record.id)
    stem = (
        SECOND_DRAFT_FILE.removesuffix(".json")
        if second
        else f"draft-{drafting(record.work).rounds}"
    )
    draft_file = folder / f"{stem}.lean"
    return GateOutcome(
        action=action,
        review=review,
        vacuity=vacuity or unbuilt,
        refutation=refutation,
        record=path,
        fingerprint=fp,
        lean_file=ctx.ws.rel(draft_file) if draft_file.is_file() else None,
        faithful=faithful,
        gated_second=second,
        counterexample=cex,
    )


def _compiled(
    ctx: EngineContext,
    record: ResultRecord,
    given: GateStepInputs,
    passed: DraftOutput | None,
    faithful: Decision | None,
    lock: dict[str, object] | None,
) -> CounterexampleCheck | None:
    """The probe's refutation of a statement the gate passed as the paper's, judged by the
    trusted checker against the statement just locked (the evidence an ERROR issue needs),
    or None."""
    if passed is None or faithful is None or faithful.next is not Next.ERROR_ISSUE:
        return None
    locked = lock.get("statement_hash") if lock is not None else None
    return compile_counterexample(
        ctx,
        given.action,
        gated=passed.statement,
        proof=faithful.counterexample,
        context=given.base,
        lean_name=given.lean_name,
        module=given.module,
        records={**given.records, record.id: _provisional(record, passed)},
        locked=locked if isinstance(locked, str) else None,
    )


def _provisional(record: ResultRecord, draft: DraftOutput) -> ResultRecord:
    """`record` as it stands once the gate passes `draft`: what its modules compose from."""
    provisional = evolve(gating(record.work), fingerprint="gating")
    own = evolve(drafting(record.work), draft=draft)
    return evolve(record, work=record.work.with_slot(own).with_slot(provisional))


def _refutation(faithful: Decision | None) -> Vacuity | None:
    """The faithfulness decision that sends the statement back to the drafter, as a reason."""
    if faithful is None or faithful.next is not Next.REDRAFT:
        return None
    return Vacuity(reason=f"{faithful.why}: {' '.join(faithful.feedback.split())[:400]}")


def _faithfulness_summary(
    ctx: EngineContext,
    record: ResultRecord,
    faithful: Decision | None,
    second: DraftOutput | None,
    cex: CounterexampleCheck | None,
) -> dict[str, object] | None:
    if faithful is None:
        return None
    return {
        "evidence": ctx.ws.rel(ctx.ws.audit_dir(record.id) / FAITHFUL_FILE),
        "decision": faithful.model_dump(mode="json"),
        "gated_draft": "second" if second is not None else "first",
        "counterexample": cex.model_dump(mode="json") if cex is not None else None,
    }


def _lock(
    ctx: EngineContext, record: ResultRecord, given: GateStepInputs, draft: DraftOutput
) -> tuple[dict[str, object] | None, Vacuity | None]:
    """The trusted checker's elaboration of the statement in its reference module, built from
    gated material only (issue #25): the statement the verdict is locked to. A statement that
    does not build there (or gated material the checker refuses) is blocked, with why."""
    if record.kind in INPUT_KINDS:
        return None, None
    records = {**given.records, record.id: _provisional(record, draft)}
    job = check_job(ctx.settings.header, records, ctx.deps, record.id, mode="reference")
    if job is None:
        return None, None
    run = trusted(ctx, given.action, job, "reference")
    path = write_json(
        ctx,
        ctx.ws.audit_dir(record.id) / f"reference-{given.action.attempt}.json",
        run.to_json(),
    )
    locked = locked_hash(run, job)
    lock: dict[str, object] = {"run": path, "key": job.key(), "statement_hash": locked}
    if locked is None:
        why = run.hint or run.outcome.value
        return lock, Vacuity(reason=f"the gated statement does not build as its reference: {why}")
    return lock, None


def _probe_vacuity(
    ctx: EngineContext, record: ResultRecord, given: GateStepInputs, draft: DraftOutput
) -> Vacuity | None:
    # Called on the verifier directly: a probe nobody answered is no evidence either way, and
    # must not stop the run the way an unavailable check of the statement itself would.
    probe = probe_draft(
        ctx.verifier,
        given.probe_context,
        draft,
        timeout_s=ctx.settings.lean_timeout_s,
        statement_only=record.kind in INPUT_KINDS,
    )
    ctx.emit(
        LeanCheckEvent(
            result=record.id,
            obligation=None,
            kind="vacuity",
            outcome="vacuous" if probe.vacuous else "not_vacuous",
            code=None,
            checked=probe.checked,
            duration_s=0.0,
            replay=ctx.verifier.is_replay,
        )
    )
    if not probe.vacuous:
        return None
    write_json(
        ctx,
        ctx.ws.audit_dir(record.id) / f"vacuity-{given.action.attempt}.json",
        {"schema": audits.VACUITY, "witness": probe.witness, "reason": probe.reason()},
    )
    return Vacuity(reason=probe.reason() or "vacuous statement")


def _faithfulness(
    ctx: EngineContext, record: ResultRecord, given: GateStepInputs, draft: DraftOutput
) -> FaithfulnessEvidence:
    """The checks of #15 before any proof search: lints, the equivalence ladder against the
    second draft (when there is one), the counterexample probe. Like the vacuity probe, an
    unanswered check is no evidence and does not stop the run."""
    second = given.second
    evidence = check_statement(
        ctx.verifier,
        given.probe_context,
        result=record.id,
        statement=draft.statement,
        second=second.statement if second is not None else None,
        definitions=draft.definitions,
        tex=given.prompt.result.statement,
        timeout_s=ctx.settings.lean_timeout_s,
    )
    probe = evidence.probe
    refuted = probe is not None and probe.refuted
    ctx.emit(
        LeanCheckEvent(
            result=record.id,
            obligation=None,
            kind="faithfulness",
            outcome="refuted" if refuted else "not_refuted",
            code=None,
            checked=_answered(evidence),
            duration_s=0.0,
            replay=ctx.verifier.is_replay,
        )
    )
    data = evidence.model_dump(mode="json", by_alias=True)
    folder = ctx.ws.audit_dir(record.id)
    # this round's evidence is kept beside the latest (a redrafted statement's refutation
    # stays on record after the next round passes)
    write_json(ctx, folder / round_file(given.action.attempt), data)
    write_json(ctx, folder / FAITHFUL_FILE, data)
    return evidence


def _answered(evidence: FaithfulnessEvidence) -> int:
    """How many of the checks' candidates Lean answered (accepted or rejected)."""
    attempts = [*(evidence.equivalence.attempts() if evidence.equivalence else ())]
    for probe in (evidence.probe, evidence.second_probe):
        attempts += probe.attempts if probe else ()
    return sum(a.answered for a in attempts)


def apply(record: ResultRecord, outcome: GateOutcome, policy: Policy) -> ResultRecord:
    gate = decision(outcome.review, outcome.vacuity or outcome.refutation)
    own, drafted = gating(record.work), drafting(record.work)
    gates = [*own.gates, gate]
    evidence = evolve(record.evidence, gate=outcome.record)
    if gate.decision == "PASS" and outcome.fingerprint:
        chosen = outcome.gated_second or drafted.draft
        obligations = _obligations_of(record, chosen)
        kept = _kept_proof(record, outcome.fingerprint, obligations)
        new = reopen(
            record,
            Gated(
                gates=gates,
                fingerprint=outcome.fingerprint,
                proof_kept=kept is not None,
                **_issue_started(outcome),
            ),
            evolve(drafted, draft=chosen),
            evolve(proving(record.work), obligations=kept or obligations),
        )
        evidence = evolve(evidence, statement_fingerprint=outcome.fingerprint)
        statement_only = not record.verdict_bearing
        if statement_only and drafted.draft is not None:
            # a gated definition is an input: its Lean text is the evidence a reader checks
            evidence = evolve(
                evidence, lean_file=outcome.lean_file, lean_name=drafted.draft.lean_name
            )
        stage = Stage.DONE if statement_only else Stage.GATED
        return evolve(new, stage=stage, evidence=evidence)
    reasons = "; ".join(gate.reasons) or "blocked without a stated reason"
    back = record.with_work(sent_back(record.work, f"gate blocked: {reasons}"))
    new = reopen(back, evolve(own, gates=gates))
    new = evolve(new, stage=Stage.GATE_BLOCKED, evidence=evidence)
    if drafted.rounds >= policy.draft_rounds:
        return unfinished(
            new, UnfinishedReason.STATEMENT_NOT_APPROVED, reasons[:400], stage=Stage.DONE
        )
    return new


def _kept_proof(
    record: ResultRecord, fingerprint: str, obligations: list[Obligation]
) -> list[Obligation] | None:
    """A re-gate's kept proof, when the gate passed the same statement with the same steps
    (`Gated.after_reset`): proved again it would be the same proof (issue #14)."""
    kept = gating(record.work).kept
    if kept is None or kept.fingerprint != fingerprint:
        return None
    if [(o.id, o.skeleton) for o in kept.obligations] != [(o.id, o.skeleton) for o in obligations]:
        return None
    return list(kept.obligations)


def _issue_started(outcome: GateOutcome) -> dict[str, Any]:
    """The suspicion a faithfulness decision starts (#15), for the issue checker to rule on:
    an ERROR (Lean refutes a statement the gate holds faithful; its counterexample already
    compiled) or a DOMAIN_CLARIFICATION (two defensible readings Lean does not equate). The
    gate's slot keeps both; a gate that passes runs again only after a reset, which kept
    neither."""
    faithful = outcome.faithful
    if faithful is None or faithful.next not in (Next.ERROR_ISSUE, Next.DOMAIN_CLARIFICATION):
        return {}
    suspicion = Suspicion(obligation=None, reason=faithful.why, raised_by=Role.GATE.value)
    if faithful.next is Next.ERROR_ISSUE:
        return {"suspicion": suspicion, "counterexample": outcome.counterexample}
    return {"suspicion": suspicion}


def _obligations_of(record: ResultRecord, draft: DraftOutput | None) -> list[Obligation]:
    if draft is None or not record.verdict_bearing:
        return []
    steps = [Obligation(id=o.id, skeleton=o.lean) for o in draft.obligations if o.id != "main"]
    return [*steps, Obligation(id="main", skeleton=draft.statement)]


def ready(record: ResultRecord, policy: Policy) -> Action | None:
    """A standing draft (routed, not sent back) and no gated statement yet."""
    own, drafted = gating(record.work), drafting(record.work)
    routed = plan_of(record.work) is not None or statement_only(record)
    if not routed or own.fingerprint is not None:
        return None
    if drafted.draft is None or drafted.feedback is not None:
        return None
    if policy.double_draft and not statement_only(record) and not second_draft.state(record).asked:
        return None  # the second, independent draft comes first (#15)
    return Action(kind=ActionKind.GATE, result=record.id, attempt=len(own.gates) + 1)


STEP = Step(
    kind=ActionKind.GATE,
    role=Role.GATE,
    stage=Stage.GATED,
    ready=ready,
    inputs=inputs,
    run=run,
    apply=apply,
    slot=Gated,
)

"""gate — the statement is reviewed before any proof search; a vacuous statement is blocked."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from paperlint.agents.inputs import GateInputs
from paperlint.agents.outputs import DraftOutput, GateOutput
from paperlint.domain import INPUT_KINDS, Role
from paperlint.engine import prompts
from paperlint.engine.actions import ActionKind
from paperlint.engine.context import EngineContext
from paperlint.engine.plan import Policy
from paperlint.engine.steps.base import Given, Step, StepOutcome, View, evolve, reopen, unfinished
from paperlint.engine.steps.effects import ask, base_context, prompt_context, write_json
from paperlint.lean.compose import context_for, fingerprint
from paperlint.lean.verifier import LeanContext
from paperlint.records.results import ResultRecord, Stage, UnfinishedReason
from paperlint.records.work import Obligation
from paperlint.validate.vacuity import probe_draft


@dataclass(frozen=True)
class GateStepInputs(Given[GateInputs]):
    draft: DraftOutput | None
    probe_context: LeanContext  # what the vacuity probe elaborates on


class Vacuity(BaseModel):
    """Lean refuted the statement from its hypotheses alone: it proves nothing."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    reason: str


class GateOutcome(StepOutcome):
    review: GateOutput  # the gate's own answer
    vacuity: Vacuity | None = None
    record: str  # audits/<id>/gate-N.json
    fingerprint: str | None = None  # of the statement, when the decision is PASS
    lean_file: str | None = None  # the type-checked draft


def decision(review: GateOutput, vacuity: Vacuity | None) -> GateOutput:
    """The gate's decision: its review, blocked if Lean showed the statement vacuous."""
    if review.decision != "PASS" or vacuity is None:
        return review
    return evolve(review, decision="BLOCK", reasons=[*review.reasons, vacuity.reason])


def inputs(record: ResultRecord, view: View) -> GateStepInputs:
    ctx, results = view.ctx, view.results
    draft = record.work.draft
    prompt = GateInputs(
        **prompts.paper_context(ctx, record, results),
        draft=draft,
        lean_context=prompt_context(ctx, results, record),
        lean_feedback="the statement type-checks (with `sorry` proofs)",
    )
    context = base_context(ctx, results, record)
    if draft is not None and record.kind in INPUT_KINDS:
        context = context_for(
            ctx.settings.header, [*context.accepted, *draft.definitions, draft.statement]
        )
    return GateStepInputs(view.action, prompt, draft, context)


def run(ctx: EngineContext, record: ResultRecord, given: GateStepInputs) -> GateOutcome:
    action, draft = given.action, given.draft
    review = ask(ctx, "gate", Role.GATE, action, given.prompt, GateOutput)
    vacuity = None
    if review.decision == "PASS" and draft is not None:
        vacuity = _probe_vacuity(ctx, record, given, draft)
    decided = decision(review, vacuity)
    fp = fingerprint(draft.statement) if draft and decided.decision == "PASS" else None
    data = {
        "schema": "paperlint.gate/1",
        "result": record.id,
        "round": action.attempt,
        "decision": decided.decision,
        "review": decided.model_dump(mode="json"),
        "statement": draft.statement if draft else None,
        "statement_fingerprint": fp,
    }
    path = write_json(ctx, ctx.ws.audit_dir(record.id) / f"gate-{action.attempt}.json", data)
    draft_file = ctx.ws.audit_dir(record.id) / f"draft-{record.work.draft_rounds}.lean"
    return GateOutcome(
        action=action,
        review=review,
        vacuity=vacuity,
        record=path,
        fingerprint=fp,
        lean_file=ctx.ws.rel(draft_file) if draft_file.is_file() else None,
    )


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
        {
            "type": "lean_check",
            "result": record.id,
            "obligation": None,
            "kind": "vacuity",
            "outcome": "vacuous" if probe.vacuous else "not_vacuous",
            "code": None,
            "checked": probe.checked,
            "duration_s": 0.0,
            "replay": ctx.verifier.is_replay,
        }
    )
    if not probe.vacuous:
        return None
    write_json(
        ctx,
        ctx.ws.audit_dir(record.id) / f"vacuity-{given.action.attempt}.json",
        {"schema": "paperlint.vacuity/1", "witness": probe.witness, "reason": probe.reason()},
    )
    return Vacuity(reason=probe.reason() or "vacuous statement")


def apply(record: ResultRecord, outcome: GateOutcome, policy: Policy) -> ResultRecord:
    gate = decision(outcome.review, outcome.vacuity)
    gates = [*record.work.gates, gate]
    evidence = evolve(record.evidence, gate=outcome.record)
    if gate.decision == "PASS" and outcome.fingerprint:
        new = reopen(
            record,
            gates=gates,
            fingerprint=outcome.fingerprint,
            obligations=_obligations_of(record),
        )
        evidence = evolve(evidence, statement_fingerprint=outcome.fingerprint)
        statement_only = not record.verdict_bearing
        if statement_only and record.work.draft is not None:
            # a gated definition is an input: its Lean text is the evidence a reader checks
            evidence = evolve(
                evidence, lean_file=outcome.lean_file, lean_name=record.work.draft.lean_name
            )
        stage = Stage.DONE if statement_only else Stage.GATED
        return evolve(new, stage=stage, evidence=evidence)
    reasons = "; ".join(gate.reasons) or "blocked without a stated reason"
    new = reopen(record, gates=gates, draft_feedback=f"gate blocked: {reasons}")
    new = evolve(new, stage=Stage.GATE_BLOCKED, evidence=evidence)
    if record.work.draft_rounds >= policy.draft_rounds:
        return unfinished(
            new, UnfinishedReason.STATEMENT_NOT_APPROVED, reasons[:400], stage=Stage.DONE
        )
    return new


def _obligations_of(record: ResultRecord) -> list[Obligation]:
    draft = record.work.draft
    if draft is None or not record.verdict_bearing:
        return []
    steps = [Obligation(id=o.id, skeleton=o.lean) for o in draft.obligations if o.id != "main"]
    return [*steps, Obligation(id="main", skeleton=draft.statement)]


STEP = Step(kind=ActionKind.GATE, role=Role.GATE, inputs=inputs, run=run, apply=apply)

"""prove — the prover answers one obligation; the verifier (or the refusal scan) judges it."""

from __future__ import annotations

from dataclasses import dataclass

from paperlint.agents.inputs import ProverInputs
from paperlint.agents.outputs import ProverOutput, StepObligation
from paperlint.domain import Role
from paperlint.engine import ports, prompts
from paperlint.engine.actions import Action, ActionKind, ProofCheck
from paperlint.engine.context import EngineContext
from paperlint.engine.policy import Policy, prover_model
from paperlint.engine.steps import restate
from paperlint.engine.steps.base import (
    Given,
    Step,
    StepOutcome,
    View,
    evolve,
    gated,
    in_issue_review,
    reopen,
)
from paperlint.engine.steps.effects import ask, base_context, lean, prompt_context, write_text
from paperlint.lean.compose import parse_declaration
from paperlint.lean.verifier import LeanCheck, LeanContext, enforce_declarations
from paperlint.lean.verifier import Outcome as LeanOutcome
from paperlint.records.layout import safe_name
from paperlint.records.results import ResultRecord, Stage
from paperlint.records.work import FailedProof, Obligation, Suspicion

MAX_FAILURES_KEPT = 5


@dataclass(frozen=True)
class ProveInputs(Given[ProverInputs]):
    obligation: Obligation
    context: LeanContext  # dependencies, own definitions, obligations proved so far


class ProveOutcome(StepOutcome):
    prover: ProverOutput
    check: ProofCheck
    accepted_text: str | None = None  # the accepted declaration


def inputs(record: ResultRecord, view: View) -> ProveInputs:
    ctx, results = view.ctx, view.results
    ob = next(o for o in record.work.obligations if o.id == view.action.obligation)
    proved = [o.proof for o in record.work.obligations if o.proof]
    context = base_context(ctx, results, record)
    for decl in proved:
        context = context.extended(decl)
    prompt = ProverInputs(
        **prompts.paper_context(ctx, record, results),
        obligation=StepObligation(id=ob.id, lean=ob.skeleton),
        step=prompts.step(record, ob.id),
        lean_context=prompt_context(ctx, results, record, [d for d in proved if d]),
        failed_attempts=prompts.failed_attempts(ctx, ob, ctx.settings.failed_attempts_in_prompt),
    )
    return ProveInputs(view.action, prompt, ob, context)


def run(ctx: EngineContext, record: ResultRecord, given: ProveInputs) -> ProveOutcome:
    action, ob = given.action, given.obligation
    automation = ctx.settings.automation_first and record.id not in ctx.settings.no_automation
    if automation and action.attempt == 1:
        closed = _automation(ctx, record, given)
        if closed is not None:
            return closed
    prover = ask(ctx, "prover", Role.PROVER, action, given.prompt, ProverOutput, model=action.model)
    folder = ctx.ws.audit_dir(record.id) / "attempts"
    file = write_text(ctx, folder / f"{safe_name(ob.id)}-{action.attempt}.lean", prover.lean)
    problem = proof_problem(ob.skeleton, prover.lean)
    if problem:
        check = ProofCheck(file=file, accepted=False, feedback=problem)
        return ProveOutcome(action=action, prover=prover, check=check)
    checked = ctx.verifier.check(given.context, prover.lean, timeout_s=ctx.settings.lean_timeout_s)
    # Lean's own parse of the answer (REPL `declarations`) backs the text scan, when present.
    target = parse_declaration(ob.skeleton)
    checked = enforce_declarations(checked, prover.lean, target.name if target else None)
    answer = lean(ctx, action, "check", checked)
    accepted = answer.outcome is LeanOutcome.ACCEPTED
    check = ProofCheck(
        file=file,
        accepted=accepted,
        feedback="" if accepted else ports.feedback(prover.lean, answer),
        timed_out=answer.outcome is LeanOutcome.TIMEOUT,
    )
    text = prover.lean.strip() if accepted else None
    return ProveOutcome(action=action, prover=prover, check=check, accepted_text=text)


def _automation(
    ctx: EngineContext, record: ResultRecord, given: ProveInputs
) -> ProveOutcome | None:
    """The automation ladder (paperlint.prover.automation): a rung accepted under the full rule
    closes the obligation with zero model calls; the evidence says which tactic did it."""
    from paperlint.lean.declarations import declarations
    from paperlint.learning.offer import library_rungs
    from paperlint.prover.automation import run_ladder, run_rungs

    action, ob = given.action, given.obligation
    target = parse_declaration(ob.skeleton)
    if target is None or not target.name:
        return None
    timeout = ctx.settings.automation_timeout_s
    outcome = run_ladder(ctx.verifier, given.context, ob.skeleton, target.name, timeout_s=timeout)
    declared = {d.name for text in given.context.accepted for d in declarations(text) if d.name}
    limit = ctx.settings.library_rungs
    rungs = library_rungs(ctx.settings.library, ob.skeleton, limit=limit, declared=declared)
    if outcome.proof is None and rungs and outcome.stopped is None:
        outcome = run_rungs(ctx.verifier, given.context, rungs, target.name, timeout_s=timeout)
    if outcome.proof is None or proof_problem(ob.skeleton, outcome.proof):
        return None
    folder = ctx.ws.audit_dir(record.id) / "attempts"
    file = write_text(ctx, folder / f"{safe_name(ob.id)}-{action.attempt}.lean", outcome.proof)
    lean(ctx, action, f"automation:{outcome.closed_by}", LeanCheck(outcome=LeanOutcome.ACCEPTED))
    prover = ProverOutput(lean=outcome.proof, notes=outcome.summary())
    check = ProofCheck(file=file, accepted=True)
    return ProveOutcome(action=action, prover=prover, check=check, accepted_text=outcome.proof)


def proof_problem(skeleton: str, candidate: str) -> str:
    """The candidate must keep the gated statement and may only fill its `sorry`."""
    from paperlint.lean.answer import answer_problem

    return answer_problem(skeleton, candidate)


def apply(record: ResultRecord, outcome: ProveOutcome, policy: Policy) -> ResultRecord:
    ob_id = outcome.action.obligation
    obligations = []
    suspicion = record.work.suspicion
    for ob in record.work.obligations:
        if ob.id == ob_id:
            ob, raised = _attempted(ob, outcome, policy)
            suspicion = raised or suspicion
        obligations.append(ob)
    fresh = suspicion is not record.work.suspicion
    cleared = {"ruling": None, "review": None, "counterexample": None} if fresh else {}
    new = reopen(record, obligations=obligations, suspicion=suspicion, **cleared)
    return evolve(new, stage=Stage.PROVING)


def _attempted(
    ob: Obligation, outcome: ProveOutcome, policy: Policy
) -> tuple[Obligation, Suspicion | None]:
    """The obligation after this attempt, and the suspicion it raises when exhausted."""
    attempts = ob.attempts + 1
    if outcome.check.accepted:
        return evolve(ob, attempts=attempts, status="proved", proof=outcome.accepted_text), None
    failure = FailedProof(
        attempt=outcome.action.attempt,
        model=outcome.action.model or "",
        file=outcome.check.file,
        feedback=outcome.check.feedback[:2000],
    )
    failures = [*ob.failures, failure][-MAX_FAILURES_KEPT:]
    exhausted = attempts >= policy.prover_attempts or outcome.prover.gives_up
    ob = evolve(ob, attempts=attempts, failures=failures, status="failed" if exhausted else "open")
    if not exhausted:
        return ob, None
    why = outcome.prover.suspected_problem or (
        f"obligation {ob.id} not proved after {attempts} attempts"
    )
    return ob, Suspicion(obligation=ob.id, reason=why)


def ready(record: ResultRecord, policy: Policy) -> Action | None:
    """Gated, no issue under review: the first open obligation, on the ladder's model."""
    if not gated(record) or in_issue_review(record):
        return None
    if restate.ready(record, policy) is not None:
        return None  # a revised statement may keep its old proof: Lean says first (#15)
    active = next((o for o in record.work.obligations if o.status == "open"), None)
    if active is None:
        return None
    attempt = active.attempts + 1
    return Action(
        kind=ActionKind.PROVE,
        result=record.id,
        obligation=active.id,
        attempt=attempt,
        model=prover_model(policy, attempt),
    )


STEP = Step(
    kind=ActionKind.PROVE, role=Role.PROVER, ready=ready, inputs=inputs, run=run, apply=apply
)

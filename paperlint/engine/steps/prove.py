"""prove — the prover answers one obligation; the verifier (or the refusal scan) judges it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from paperlint.agents.inputs import FailedAttempt, ProverInputs
from paperlint.agents.outputs import ProverOutput, StepObligation
from paperlint.domain import Role
from paperlint.engine import ports, prompts
from paperlint.engine.actions import Action, ActionKind, ProofCheck
from paperlint.engine.context import EngineContext
from paperlint.engine.policy import Policy, prover_model
from paperlint.engine.steps import restate, toolloop
from paperlint.engine.steps.base import (
    Given,
    Step,
    StepOutcome,
    View,
    evolve,
    gated,
    in_issue_review,
    reopen,
    unfinished,
)
from paperlint.engine.steps.effects import ask, base_context, lean, prompt_context, write_text
from paperlint.lean.compose import parse_declaration
from paperlint.lean.verifier import LeanCheck, LeanContext, enforce_declarations
from paperlint.lean.verifier import Outcome as LeanOutcome
from paperlint.prover.automation import AutomationOutcome
from paperlint.records.layout import safe_name
from paperlint.records.results import ResultRecord, Stage, UnfinishedReason
from paperlint.records.slots import Proving, obligations_of, proving, suspicion_of
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
    spent: str | None = None  # the tool loop's budget ran out: why (the obligation ends)


def inputs(record: ResultRecord, view: View) -> ProveInputs:
    ctx, results = view.ctx, view.results
    obligations = obligations_of(record.work)
    ob = next(o for o in obligations if o.id == view.action.obligation)
    proved = [o.proof for o in obligations if o.proof]
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
    action = given.action
    automation = ctx.settings.automation_first and record.id not in ctx.settings.no_automation
    ladder = _ladder(ctx, given) if automation and action.attempt == 1 else None
    if ladder is not None and ladder.proof is not None:
        return _closed_by_automation(ctx, record, given, ladder)
    if ctx.settings.tool_loop:
        return _tool_loop(ctx, record, given, ladder or AutomationOutcome())
    return _one_shot(ctx, record, given)


def _one_shot(ctx: EngineContext, record: ResultRecord, given: ProveInputs) -> ProveOutcome:
    """One tool-less completion, checked by the verifier (the path with the tool loop off)."""
    action, ob = given.action, given.obligation
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


def _tool_loop(
    ctx: EngineContext, record: ResultRecord, given: ProveInputs, ladder: AutomationOutcome
) -> ProveOutcome:
    """The attempt as a tool loop (paperlint.engine.steps.toolloop); the accepted proof is
    held to the same rule as a one-shot answer before it counts."""
    from paperlint.prover.strategy import ObligationTask

    action, ob = given.action, given.obligation
    target = parse_declaration(ob.skeleton)
    name = target.name if target and target.name else ob.id
    task = ObligationTask(
        result=record.id,
        obligation=ob.id,
        attempt=action.attempt,
        skeleton=ob.skeleton,
        target=name,
        step_text=_step_text(ctx, record, given),
        context=given.context,
        failures=_failures(ob, given.prompt.failed_attempts),
        hidden=toolloop.hidden_names(ctx, record, name),
    )
    outcome = toolloop.run_loop(ctx, record, action, task, ladder)
    proof = outcome.proof
    problem = proof_problem(ob.skeleton, proof) if proof else outcome.reason
    folder = ctx.ws.audit_dir(record.id) / "attempts"
    why = " ".join(outcome.reason.split())[:300]  # one comment line
    text = proof or f"-- the tool loop ended: {why}\n{ob.skeleton}"
    file = write_text(ctx, folder / f"{safe_name(ob.id)}-{action.attempt}.lean", text)
    suspected = outcome.reason if outcome.suspected_problem else None
    prover = ProverOutput(
        lean=text,
        notes=f"closed by {outcome.closed_by.value}" if outcome.closed_by else outcome.reason,
        gives_up=suspected is not None,
        suspected_problem=suspected,
    )
    check = ProofCheck(file=file, accepted=not problem, feedback=problem)
    accepted = proof.strip() if proof and not problem else None
    return ProveOutcome(
        action=action,
        prover=prover,
        check=check,
        accepted_text=accepted,
        spent=toolloop.spent(ctx, outcome, toolloop.turn_log_path(ctx, record, task)),
    )


def _failures(ob: Obligation, shown: list[FailedAttempt]) -> list[dict[str, Any]]:
    """The last failed attempts for the loop's first prompt: their real numbers, what was
    tried (the candidate) and Lean's answer; summarised there, never pasted twice."""
    kept = ob.failures[-len(shown) :] if shown else []
    return [
        {"attempt": f.attempt, "tried": s.lean, "error": s.feedback}
        for f, s in zip(kept, shown, strict=True)
    ]


def _step_text(ctx: EngineContext, record: ResultRecord, given: ProveInputs) -> str:
    step = given.prompt.step
    if step is not None:
        return f"{step.text}\n{step.justification}".strip()
    proof = ctx.paper_result(record.id).proof
    return proof.text[:2000] if proof else given.prompt.result.statement[:2000]


def _ladder(ctx: EngineContext, given: ProveInputs) -> AutomationOutcome | None:
    """The automation ladder (paperlint.prover.automation), then the offered library lemmas
    as further rungs; None when the skeleton names no target. A rung's proof that breaks the
    candidate rule does not count."""
    from paperlint.lean.declarations import declarations
    from paperlint.learning.offer import library_rungs
    from paperlint.prover.automation import run_ladder, run_rungs

    ob = given.obligation
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
    if outcome.proof is not None and proof_problem(ob.skeleton, outcome.proof):
        return outcome.model_copy(update={"proof": None, "closed_by": None})
    return outcome


def _closed_by_automation(
    ctx: EngineContext, record: ResultRecord, given: ProveInputs, outcome: AutomationOutcome
) -> ProveOutcome:
    """A rung accepted under the full rule closes the obligation with zero model calls; the
    evidence says which tactic did it."""
    action, ob = given.action, given.obligation
    proof = outcome.proof or ""
    folder = ctx.ws.audit_dir(record.id) / "attempts"
    file = write_text(ctx, folder / f"{safe_name(ob.id)}-{action.attempt}.lean", proof)
    accepted = LeanCheck(outcome=LeanOutcome.ACCEPTED, replay=ctx.verifier.is_replay)
    lean(ctx, action, f"automation:{outcome.closed_by}", accepted)
    if ctx.settings.tool_loop:
        toolloop.finished(ctx, action, toolloop.automation_closed(outcome))
    prover = ProverOutput(lean=proof, notes=outcome.summary())
    check = ProofCheck(file=file, accepted=True)
    return ProveOutcome(action=action, prover=prover, check=check, accepted_text=proof)


def proof_problem(skeleton: str, candidate: str) -> str:
    """The candidate must keep the gated statement and may only fill its `sorry`."""
    from paperlint.lean.answer import answer_problem

    return answer_problem(skeleton, candidate)


def apply(record: ResultRecord, outcome: ProveOutcome, policy: Policy) -> ResultRecord:
    ob_id = outcome.action.obligation
    obligations = []
    suspicion = proving(record.work).suspicion
    for ob in obligations_of(record.work):
        if ob.id == ob_id:
            ob, raised = _attempted(ob, outcome, policy)
            suspicion = raised or suspicion
        obligations.append(ob)
    # A fresh suspicion makes the ruling, its counterexample and the review stale (their
    # slots are keyed to the suspicion they answered), and the gate's counterexample no
    # longer answers the suspicion under review (`gate_counterexample`).
    own = evolve(proving(record.work), obligations=obligations, suspicion=suspicion)
    new = evolve(reopen(record, own), stage=Stage.PROVING)
    raised_any = suspicion_of(new.work) is not None
    spent = next((o for o in obligations if o.status == "failed" and not raised_any), None)
    if spent is not None and spent.failures:
        # A tool loop spent its budget on this obligation: no proof and no suspected problem,
        # so the result is unfinished with the loop's reason (kept while later obligations run).
        return unfinished(new, UnfinishedReason.BUDGET_EXHAUSTED, spent.failures[-1].feedback)
    return new


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
        feedback=(outcome.spent or outcome.check.feedback)[:2000],
    )
    failures = [*ob.failures, failure][-MAX_FAILURES_KEPT:]
    if outcome.spent is not None:  # the loop's budget is the obligation's: it ends here
        return evolve(ob, attempts=attempts, failures=failures, status="failed"), None
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
    active = next((o for o in obligations_of(record.work) if o.status == "open"), None)
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
    kind=ActionKind.PROVE,
    role=Role.PROVER,
    stage=Stage.PROVING,
    ready=ready,
    inputs=inputs,
    run=run,
    apply=apply,
    slot=Proving,
)

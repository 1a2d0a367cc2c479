"""draft — the drafter writes the Lean statement and step obligations; they must type-check."""

from __future__ import annotations

from dataclasses import dataclass

from paperlint.agents.inputs import DrafterInputs, FailedAttempt
from paperlint.agents.outputs import DraftOutput
from paperlint.domain import INPUT_KINDS, Role
from paperlint.engine import ports, prompts
from paperlint.engine.actions import Action, ActionKind
from paperlint.engine.context import EngineContext
from paperlint.engine.policy import Policy
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
from paperlint.engine.steps.effects import ask, dependency_decls, lean, prompt_context, write_json
from paperlint.lean.compose import context_for, parse_declaration
from paperlint.lean.repl_declarations import statement_problem
from paperlint.lean.verifier import LeanContext
from paperlint.lean.verifier import Outcome as LeanOutcome
from paperlint.records.results import ResultRecord, Stage, UnfinishedReason
from paperlint.records.slots import Drafted, drafting, fingerprint_of, plan_of
from paperlint.store import write_text_atomic


@dataclass(frozen=True)
class DraftInputs(Given[DrafterInputs]):
    context: LeanContext  # what the statement elaborates on: the dependencies' accepted Lean


class DraftOutcome(StepOutcome):
    draft: DraftOutput
    ok: bool  # the statement type-checked
    feedback: str = ""  # why not, for the next round


def inputs(record: ResultRecord, view: View) -> DraftInputs:
    ctx, results = view.ctx, view.results
    plan = plan_of(record.work)
    prompt = DrafterInputs(
        **prompts.paper_context(ctx, record, results),
        proof=prompts.proof_text(ctx, record),
        steps=prompts.steps(record),
        cited_inputs=list(plan.cited_inputs) if plan else [],
        asserted_facts=list(plan.asserted_facts) if plan else [],
        lean_context=prompt_context(ctx, results, record),
        failed_attempts=_previous_draft(record),
    )
    context = context_for(ctx.settings.header, dependency_decls(ctx, results, record))
    return DraftInputs(view.action, prompt, context)


def _previous_draft(record: ResultRecord) -> list[FailedAttempt]:
    own = drafting(record.work)
    if own.draft is None or own.feedback is None:
        return []
    return [
        FailedAttempt(
            lean=prompts.clip(own.draft.statement, prompts.MAX_LEAN),
            feedback=prompts.clip(own.feedback, prompts.MAX_FEEDBACK),
        )
    ]


def run(ctx: EngineContext, record: ResultRecord, given: DraftInputs) -> DraftOutcome:
    action = given.action
    draft = ask(ctx, "drafter", Role.DRAFTER, action, given.prompt, DraftOutput)
    folder = ctx.ws.audit_dir(record.id)
    write_json(ctx, folder / f"draft-{action.attempt}.json", draft.model_dump(mode="json"))
    ok, feedback = typecheck(ctx, record, given, draft)
    return DraftOutcome(action=action, draft=draft, ok=ok, feedback=feedback)


def draft_text(draft: DraftOutput) -> str:
    """The text the type-check elaborates: definitions, step lemmas, then the statement."""
    parts = [o.lean for o in draft.obligations if o.id != "main"]
    return "\n\n".join([*draft.definitions, *parts, draft.statement])


def typecheck(
    ctx: EngineContext,
    record: ResultRecord,
    given: DraftInputs,
    draft: DraftOutput,
    *,
    stem: str = "draft",
) -> tuple[bool, str]:
    """Does the draft elaborate (with `sorry` proofs)? Its text goes to `<stem>-N.lean`."""
    statement_only = record.kind in INPUT_KINDS
    text = draft_text(draft)
    refused = ports.refusals(text, allow_sorry=not statement_only)
    if refused:
        return False, "refused before Lean: " + "; ".join(refused[:5])
    if parse_declaration(draft.statement) is None:
        return False, "the statement is not one Lean declaration `theorem NAME binders : TYPE := …`"
    checked = ctx.verifier.check(given.context, text, timeout_s=ctx.settings.lean_timeout_s)
    check = lean(ctx, given.action, "draft", checked)
    write_text_atomic(ctx.ws.audit_dir(record.id) / f"{stem}-{given.action.attempt}.lean", text)
    if check.errors():
        return False, ports.feedback(text, check)
    disagreement = statement_problem(check.declarations, text)
    if disagreement:  # Lean's own parse (REPL `declarations`) backs the text's
        return False, disagreement
    if check.outcome is LeanOutcome.TIMEOUT:
        return False, "Lean timed out elaborating the statement"
    if statement_only and check.outcome is not LeanOutcome.ACCEPTED:
        return False, "a definition must elaborate without `sorry`"
    return True, ""


def apply(record: ResultRecord, outcome: DraftOutcome, policy: Policy) -> ResultRecord:
    rounds = drafting(record.work).rounds + 1
    feedback = None if outcome.ok else outcome.feedback
    new = reopen(record, Drafted(draft=outcome.draft, rounds=rounds, feedback=feedback))
    if outcome.ok:
        return evolve(new, stage=Stage.DRAFTED)
    if rounds >= policy.draft_rounds:
        return unfinished(
            new,
            UnfinishedReason.TRANSLATION_BLOCKED,
            f"the drafted statement did not type-check after {rounds} rounds: "
            f"{outcome.feedback[:300]}",
            stage=Stage.DONE,
        )
    return new


def ready(record: ResultRecord, policy: Policy) -> Action | None:
    """Routed (or a definition), not yet gated, and no draft standing: draft, while rounds last
    (when they are spent, `apply` has recorded why the statement is not approved)."""
    work, own = record.work, drafting(record.work)
    routed = plan_of(work) is not None or statement_only(record)
    if not routed or fingerprint_of(work) is not None:
        return None
    if own.draft is not None and own.feedback is None:
        return None  # a draft waits for the gate
    if own.rounds >= policy.draft_rounds:
        return None
    return Action(kind=ActionKind.DRAFT, result=record.id, attempt=own.rounds + 1)


STEP = Step(
    kind=ActionKind.DRAFT,
    role=Role.DRAFTER,
    stage=Stage.DRAFTED,
    ready=ready,
    inputs=inputs,
    run=run,
    apply=apply,
    slot=Drafted,
)

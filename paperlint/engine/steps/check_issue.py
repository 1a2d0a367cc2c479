"""check_issue — the issue checker rules on a suspected issue; an ERROR needs a counterexample
to the gated statement, composed by the engine from the checker's proof and judged by the
trusted checker against the negation of the statement the gate locked (issue #25)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from paperlint.agents.inputs import IssueCheckerInputs, SuspectedIssue
from paperlint.agents.outputs import IssueRuling
from paperlint.domain import STANDARD_AXIOMS, IssueClass, Role
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
    gated,
    in_issue_review,
    reopen,
    unfinished,
)
from paperlint.engine.steps.effects import (
    ask,
    base_context,
    check_records,
    locate_quote,
    prompt_context,
    sha,
    trusted,
    write_json,
)
from paperlint.lean.checker import COUNTEREXAMPLE_FILE
from paperlint.lean.compose import module_text, parse_declaration, refutation_statement, with_body
from paperlint.lean.trusted import gate_lock, judgement, read_workspace_json, verdict_problems
from paperlint.lean.verifier import LeanContext
from paperlint.records import audits
from paperlint.records.layout import safe_name
from paperlint.records.modules import refutation_job
from paperlint.records.results import ResultRecord, Stage, UnfinishedReason
from paperlint.records.slots import (
    Ruled,
    draft_of,
    gate_counterexample,
    obligations_of,
    suspicion_of,
)
from paperlint.records.slots import ruling as issue_ruling
from paperlint.records.work import CounterexampleCheck
from paperlint.store import write_text_atomic


@dataclass(frozen=True)
class CheckIssueInputs(Given[IssueCheckerInputs]):
    context: LeanContext  # the human-readable counterexample file's context
    lean_name: str  # the result's Lean name; the counterexample is `<name>_counterexample`
    module: str  # the result's Lean module file, workspace-relative
    records: Mapping[str, ResultRecord]  # it and its dependencies: the checker's layout


class CheckIssueOutcome(StepOutcome):
    ruling: IssueRuling
    record: str  # audits/<id>/issue.json
    quote_file: str | None = None  # where the quote occurs verbatim, if it does
    quote_line: int | None = None
    counterexample: CounterexampleCheck | None = None
    hashes: dict[str, str] = {}


def inputs(record: ResultRecord, view: View) -> CheckIssueInputs:
    ctx, results = view.ctx, view.results
    suspicion = suspicion_of(record.work)
    ob = next(
        (o for o in obligations_of(record.work) if suspicion and o.id == suspicion.obligation), None
    )
    keep = ctx.settings.failed_attempts_in_prompt
    prompt = IssueCheckerInputs(
        **prompts.paper_context(ctx, record, results),
        proof=prompts.proof_text(ctx, record),
        steps=prompts.steps(record),
        step=prompts.step(record, ob.id if ob else None),
        suspected_issue=_suspected(record),
        source_excerpt=prompts.source_excerpt(ctx, record),
        lean_context=prompt_context(ctx, results, record),
        failed_attempts=prompts.failed_attempts(ctx, ob, keep) if ob else [],
    )
    return CheckIssueInputs(
        view.action,
        prompt,
        context=base_context(ctx, results, record),
        lean_name=ctx.lean_names.get(record.id, "result"),
        module=ctx.modules.get(record.id, f"lean/{safe_name(record.id)}.lean"),
        records=check_records(ctx, view.results, record),
    )


def _suspected(record: ResultRecord) -> SuspectedIssue:
    suspicion = suspicion_of(record.work)
    if suspicion is not None:
        return SuspectedIssue(
            raised_by=suspicion.raised_by, step=suspicion.obligation, description=suspicion.reason
        )
    ambiguity = drafted.ambiguity if (drafted := draft_of(record.work)) else ""
    return SuspectedIssue(raised_by="drafter", step=None, description=f"ambiguity: {ambiguity}")


def run(ctx: EngineContext, record: ResultRecord, given: CheckIssueInputs) -> CheckIssueOutcome:
    action = given.action
    ruling = ask(ctx, "issue_checker", Role.ISSUE_CHECKER, action, given.prompt, IssueRuling)
    folder = ctx.ws.audit_dir(record.id)
    path = write_json(
        ctx,
        folder / "issue.json",
        audits.enveloped(audits.ISSUE_RULING, ruling),
    )
    quote_file, quote_line = (
        locate_quote(ctx, record, ruling.quote) if ruling.is_issue else (None, None)
    )
    cex = None
    hashes: dict[str, str] = {ctx.ws.rel(folder / "issue.json"): sha(folder / "issue.json")}
    if ruling.is_issue and ruling.issue_class is IssueClass.ERROR:
        cex = _counterexample(ctx, record, given, ruling)
        if cex.accepted:
            for kept in (cex.file, cex.checker):
                if kept is not None:
                    hashes[kept] = sha(ctx.ws.root / kept)
    return CheckIssueOutcome(
        action=action,
        ruling=ruling,
        record=path,
        quote_file=quote_file,
        quote_line=quote_line,
        counterexample=cex,
        hashes=hashes,
    )


def _counterexample(
    ctx: EngineContext, record: ResultRecord, given: CheckIssueInputs, ruling: IssueRuling
) -> CounterexampleCheck:
    compiled = gate_counterexample(record.work)  # compiled by the gate's probe (#15)
    if not ruling.counterexample and compiled and compiled.accepted and compiled.axioms_ok:
        return compiled  # the gate's counterexample probe compiled it already (#15)
    draft = draft_of(record.work)
    root = ctx.ws.root
    gate = read_workspace_json(root, record.evidence.gate) if record.evidence.gate else None
    return compile_counterexample(
        ctx,
        given.action,
        gated=draft.statement if draft else None,
        proof=ruling.counterexample,
        context=given.context,
        lean_name=given.lean_name,
        module=given.module,
        records=given.records,
        locked=gate_lock(gate, lambda rel: read_workspace_json(root, rel)),
    )


def compile_counterexample(
    ctx: EngineContext,
    action: Action,
    *,
    gated: str | None,
    proof: str | None,
    context: LeanContext,
    lean_name: str,
    module: str,
    records: Mapping[str, ResultRecord],
    locked: str | None,
) -> CounterexampleCheck:
    """`theorem <name>_counterexample : ¬ (the gated statement)` with `proof`'s body.

    The self-contained file beside the result's module is what a referee reads; it is not
    built. The declaration is judged by the trusted checker (`modules.refutation_job`): its
    type must be exactly the negation of the statement the gate locked (`locked`), its axioms
    the standard ones, every constant it adds replayed and allowed."""
    name = f"{lean_name}_counterexample"
    statement = refutation_statement(gated, name) if gated else None
    path = ctx.ws.root / f"{module.removesuffix('.lean')}_counterexample.lean"
    rel = ctx.ws.rel(path)
    if statement is None or not proof:
        return CounterexampleCheck(
            file=rel, accepted=False, axioms_ok=False, detail="no counterexample"
        )
    body = parse_declaration(proof)
    declaration = with_body(statement, body.body if body and body.body else proof)
    refused = ports.answer_refusals(declaration)
    write_text_atomic(path, module_text(context, declaration))
    found = CounterexampleCheck(file=rel, accepted=False, axioms_ok=False, declaration=declaration)
    rid = action.result
    job = refutation_job(ctx.settings.header, records, ctx.deps, rid, declaration)
    if refused or job is None:
        detail = "; ".join(refused) or "the records compose no refutation to check"
        return found.model_copy(update={"detail": detail})
    run = trusted(ctx, action, job, "counterexample")
    checker = write_json(ctx, ctx.ws.audit_dir(rid) / COUNTEREXAMPLE_FILE, run.to_json())
    problems = verdict_problems(run, job=job, locked=locked, conditions=(), derived=True)
    verdict = judgement(run, job.request)
    axioms = verdict.axioms if verdict is not None else None
    return found.model_copy(
        update={
            "accepted": not problems,
            "axioms_ok": axioms is not None and set(axioms) <= STANDARD_AXIOMS,
            "detail": "; ".join(f"{rule}: {message}" for rule, message in problems[:3]),
            "checker": checker,
        }
    )


def apply(record: ResultRecord, outcome: CheckIssueOutcome, policy: Policy) -> ResultRecord:
    ruling = outcome.ruling
    # the suspicion it answers; an ambiguity ruled an issue raises none (`suspected` derives it)
    cex, suspicion = outcome.counterexample, suspicion_of(record.work)
    new = reopen(record, Ruled(on=suspicion, ruling=ruling, counterexample=cex))
    hashes = {**record.evidence.hashes, **outcome.hashes}  # the ruling and any counterexample
    new = evolve(new, evidence=evolve(new.evidence, hashes=hashes))
    if not ruling.is_issue:
        if suspicion is None:
            return new  # the ambiguity does not matter: go on proving
        return unfinished(
            new,
            UnfinishedReason.BUDGET_EXHAUSTED,
            f"{suspicion.reason}; the issue checker found no problem in the step",
            stage=Stage.DONE,
        )
    problem = unconfirmable(outcome)
    if problem:
        return unfinished(new, UnfinishedReason.ISSUE_NOT_CONFIRMED, problem, stage=Stage.DONE)
    return new


def unconfirmable(outcome: CheckIssueOutcome) -> str | None:
    """Why a ruling of "issue" cannot stand: no class, no verbatim quote, an ERROR unproved."""
    ruling = outcome.ruling
    if ruling.issue_class is None:
        return "the issue checker gave no issue class"
    if outcome.quote_line is None:
        return f"the quoted text does not occur verbatim in the source: {ruling.quote[:120]!r}"
    if ruling.issue_class is IssueClass.ERROR:
        cex = outcome.counterexample
        if cex is None or not (cex.accepted and cex.axioms_ok):
            detail = cex.detail if cex else "no counterexample given"
            return f"ERROR needs a compiled Lean counterexample: {detail}"
    return None


def ready(record: ResultRecord, policy: Policy) -> Action | None:
    """Gated, with a suspected issue (or an ambiguity the draft flagged) not yet ruled on."""
    if not gated(record) or issue_ruling(record.work) is not None:
        return None
    if not in_issue_review(record):
        return None
    return Action(kind=ActionKind.CHECK_ISSUE, result=record.id)


STEP = Step(
    kind=ActionKind.CHECK_ISSUE,
    role=Role.ISSUE_CHECKER,
    stage=Stage.DONE,
    ready=ready,
    inputs=inputs,
    run=run,
    apply=apply,
)

"""Execute one action: the only place with effects (one agent call, Lean checks, files).

Evidence is written to disk here, before `apply` and the commit record it (evidence first,
state last). Failures of the edges become typed outcomes, never exceptions.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from paperlint.agents.faults import BudgetSpent, ModelUnavailableError
from paperlint.agents.outputs import (
    ArchitectOutput,
    AuditOutput,
    DraftOutput,
    GateOutput,
    IssueRuling,
    ProverOutput,
    ReviewOutput,
)
from paperlint.engine import leantext, ports, prompts
from paperlint.engine.actions import Action, ActionKind, Failure, Outcome, ProofCheck
from paperlint.engine.context import EngineContext
from paperlint.engine.plan import STATEMENT_ONLY_KINDS
from paperlint.engine.workspace import safe_name
from paperlint.errors import ModelError
from paperlint.lean.verifier import FinalCheck, LeanCheck, LeanContext
from paperlint.lean.verifier import Outcome as LeanOutcome
from paperlint.records.results import ResultRecord, Results, Verdict
from paperlint.records.store import write_json_atomic, write_text_atomic
from paperlint.records.work import CounterexampleCheck, FinalAudit

STANDARD_AXIOMS = frozenset({"propext", "Classical.choice", "Quot.sound"})
T = TypeVar("T", bound=BaseModel)


class ModelUnavailable(Exception):
    """No model can be asked: stop the run (every open result becomes unfinished)."""


class LeanUnavailable(Exception):
    """Lean cannot answer (no toolchain, dead server, no recording): stop the run."""


def execute(ctx: EngineContext, results: Results, action: Action) -> Outcome:
    record = results.get(action.result)
    if record is None:
        raise KeyError(action.result)
    handlers: dict[ActionKind, Callable[[EngineContext, Results, ResultRecord, Action], Outcome]]
    handlers = {
        ActionKind.PLAN: _plan,
        ActionKind.DRAFT: _draft,
        ActionKind.GATE: _gate,
        ActionKind.PROVE: _prove,
        ActionKind.CHECK_ISSUE: _check_issue,
        ActionKind.REVIEW_ISSUE: _review_issue,
        ActionKind.AUDIT: _audit,
    }
    try:
        return handlers[action.kind](ctx, results, record, action)
    except (ModelUnavailable, ModelUnavailableError) as exc:
        # Auth, config, a provider that kept failing: resumable, never a final reason.
        return Outcome(action=action, failure=Failure.MODEL_UNAVAILABLE, detail=str(exc))
    except BudgetSpent as exc:
        return Outcome(action=action, failure=Failure.BUDGET_EXHAUSTED, detail=str(exc))
    except LeanUnavailable as exc:
        return Outcome(action=action, failure=Failure.LEAN_UNAVAILABLE, detail=str(exc))
    except ModelError as exc:
        return Outcome(action=action, failure=Failure.INVALID_MODEL_OUTPUT, detail=str(exc))


# --- helpers -----------------------------------------------------------------------------------


def _ask(
    ctx: EngineContext,
    task: str,
    role: str,
    action: Action,
    inputs: dict[str, Any],
    expect: type[T],
    *,
    model: str | None = None,
) -> T:
    chosen = model or ctx.settings.models.get(role)
    if not chosen:
        raise ModelUnavailable(
            f"no model configured for role {role}; set [models] in paperlint.toml"
        )
    reply = ctx.ask(
        task,
        role=role,
        result=action.result,
        obligation=action.obligation,
        attempt=action.attempt,
        model=chosen,
        inputs=inputs,
    )
    if not isinstance(reply, expect):
        raise ModelError(f"{task}: expected {expect.__name__}, got {type(reply).__name__}")
    return reply


def _lean(ctx: EngineContext, action: Action, kind: str, check: LeanCheck) -> LeanCheck:
    ctx.emit(
        {
            "type": "lean_check",
            "result": action.result,
            "obligation": action.obligation,
            "kind": kind,
            "outcome": check.outcome.value,
            "code": check.code.value if check.code else None,
            "duration_s": round(check.duration_s, 3),
            "replay": check.replay,
        }
    )
    if check.outcome is LeanOutcome.UNAVAILABLE:
        raise LeanUnavailable(check.hint or (check.code.value if check.code else "unavailable"))
    return check


def _final_check(ctx: EngineContext, action: Action, path: Path, name: str) -> FinalCheck:
    """The cold build of a self-contained file, logged like every other Lean check."""
    final = ctx.verifier.final_check(path, [name], timeout_s=ctx.settings.final_timeout_s)
    summary = LeanCheck(
        outcome=final.outcome,
        code=final.code,
        hint=final.hint,
        replay=final.replay,
        duration_s=final.duration_s,
    )
    _lean(ctx, action, "final", summary)
    return final


def _write_json(ctx: EngineContext, path: Path, data: Any) -> str:
    write_json_atomic(path, data)
    return ctx.ws.rel(path)


def _write_text(ctx: EngineContext, path: Path, text: str) -> str:
    write_text_atomic(path, text)
    return ctx.ws.rel(path)


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def accepted_declarations(record: ResultRecord) -> list[str]:
    """The Lean text a dependent may build on: a gated definition, or a verified proof."""
    draft = record.work.draft
    if draft is None or record.work.fingerprint is None:
        return []
    if record.kind in STATEMENT_ONLY_KINDS:
        return [*draft.definitions, draft.statement]
    if record.verdict in (Verdict.VERIFIED_UNCONDITIONAL, Verdict.VERIFIED_CONDITIONAL):
        proofs = [o.proof for o in record.work.obligations if o.proof]
        return [*draft.definitions, *proofs]
    return []


def base_context(ctx: EngineContext, results: Results, record: ResultRecord) -> LeanContext:
    """The dependencies' accepted Lean, then the result's own definitions."""
    decls = _dependency_decls(ctx, results, record)
    if record.work.draft is not None and record.kind not in STATEMENT_ONLY_KINDS:
        decls.extend(record.work.draft.definitions)
    return leantext.context_for(ctx.settings.header, decls)


# --- actions -----------------------------------------------------------------------------------


def _plan(ctx: EngineContext, results: Results, record: ResultRecord, action: Action) -> Outcome:
    inputs = prompts.paper_context(ctx, record, results)
    inputs["proof"] = prompts.proof_text(ctx, record)
    plan = _ask(ctx, "architect", "architect", action, inputs, ArchitectOutput)
    _write_json(ctx, ctx.ws.audit_dir(record.id) / "plan.json", plan.model_dump(mode="json"))
    return Outcome(action=action, plan=plan)


def _draft(ctx: EngineContext, results: Results, record: ResultRecord, action: Action) -> Outcome:
    inputs = prompts.paper_context(ctx, record, results)
    plan = record.work.plan
    inputs.update(
        proof=prompts.proof_text(ctx, record),
        steps=prompts.steps(record),
        cited_inputs=[c.model_dump(mode="json") for c in plan.cited_inputs] if plan else [],
        asserted_facts=list(plan.asserted_facts) if plan else [],
        lean_context=prompt_context(ctx, results, record),
        failed_attempts=_previous_draft(ctx, record),
    )
    draft = _ask(ctx, "drafter", "drafter", action, inputs, DraftOutput)
    folder = ctx.ws.audit_dir(record.id)
    _write_json(ctx, folder / f"draft-{action.attempt}.json", draft.model_dump(mode="json"))
    ok, feedback = _typecheck_draft(ctx, results, record, action, draft)
    return Outcome(action=action, draft=draft, draft_ok=ok, draft_feedback=feedback)


def _previous_draft(ctx: EngineContext, record: ResultRecord) -> list[dict[str, str]]:
    if record.work.draft is None or record.work.draft_feedback is None:
        return []
    return [
        {
            "lean": prompts.clip(record.work.draft.statement, prompts.MAX_LEAN),
            "feedback": prompts.clip(record.work.draft_feedback, prompts.MAX_FEEDBACK),
        }
    ]


def _suspected(record: ResultRecord) -> dict[str, object]:
    suspicion = record.work.suspicion
    if suspicion is not None:
        return {
            "raised_by": "prover",
            "step": suspicion.obligation,
            "description": suspicion.reason,
        }
    ambiguity = record.work.draft.ambiguity if record.work.draft else ""
    return {"raised_by": "drafter", "step": None, "description": f"ambiguity: {ambiguity}"}


def _draft_text(record: ResultRecord, draft: DraftOutput) -> str:
    parts = [o.lean for o in draft.obligations if o.id != "main"]
    return "\n\n".join([*draft.definitions, *parts, draft.statement])


def _typecheck_draft(
    ctx: EngineContext, results: Results, record: ResultRecord, action: Action, draft: DraftOutput
) -> tuple[bool, str]:
    statement_only = record.kind in STATEMENT_ONLY_KINDS
    text = _draft_text(record, draft)
    refused = ports.refusals(text, allow_sorry=not statement_only)
    if refused:
        return False, "refused before Lean: " + "; ".join(refused[:5])
    if leantext.parse_declaration(draft.statement) is None:
        return False, "the statement is not one Lean declaration `theorem NAME binders : TYPE := …`"
    context = leantext.context_for(ctx.settings.header, _dependency_decls(ctx, results, record))
    check = _lean(
        ctx,
        action,
        "draft",
        ctx.verifier.check(context, text, timeout_s=ctx.settings.lean_timeout_s),
    )
    write_text_atomic(ctx.ws.audit_dir(record.id) / f"draft-{action.attempt}.lean", text)
    if check.errors():
        return False, ports.feedback(text, check)
    if check.outcome is LeanOutcome.TIMEOUT:
        return False, "Lean timed out elaborating the statement"
    if statement_only and check.outcome is not LeanOutcome.ACCEPTED:
        return False, "a definition must elaborate without `sorry`"
    return True, ""


def prompt_context(
    ctx: EngineContext, results: Results, record: ResultRecord, extra: list[str] | None = None
) -> str:
    """What the model sees of the Lean context: the direct dependencies' statements only.

    The checks elaborate on every transitive dependency; the prompt stays bounded by the
    result's own neighbourhood, so its size does not grow with the paper (issue #4)."""
    paper = ctx.paper_result(record.id)
    decls: list[str] = []
    for dep_id in dict.fromkeys([*paper.uses, *paper.proof_uses]):
        dep = results.get(dep_id)
        if dep is not None:
            decls.extend(accepted_declarations(dep))
    if record.work.draft is not None and record.kind not in STATEMENT_ONLY_KINDS:
        decls.extend(record.work.draft.definitions)
    decls.extend(extra or [])
    return prompts.lean_context_text(leantext.context_for(ctx.settings.header, decls))


def _dependency_decls(ctx: EngineContext, results: Results, record: ResultRecord) -> list[str]:
    decls: list[str] = []
    for dep_id in ctx.deps.get(record.id, []):
        dep = results.get(dep_id)
        if dep is not None:
            decls.extend(accepted_declarations(dep))
    return decls


def _gate(ctx: EngineContext, results: Results, record: ResultRecord, action: Action) -> Outcome:
    inputs = prompts.paper_context(ctx, record, results)
    inputs.update(
        draft=record.work.draft.model_dump(mode="json") if record.work.draft else None,
        lean_context=prompt_context(ctx, results, record),
        lean_feedback="the statement type-checks (with `sorry` proofs)",
    )
    gate = _ask(ctx, "gate", "gate", action, inputs, GateOutput)
    draft = record.work.draft
    if gate.decision == "PASS" and draft is not None:
        gate = _probe_vacuity(ctx, results, record, action, gate, draft)
    fp = ports.fingerprint(draft.statement) if draft and gate.decision == "PASS" else None
    data = {
        "schema": "paperlint.gate/1",
        "result": record.id,
        "round": action.attempt,
        "decision": gate.decision,
        "review": gate.model_dump(mode="json"),
        "statement": draft.statement if draft else None,
        "statement_fingerprint": fp,
    }
    path = _write_json(ctx, ctx.ws.audit_dir(record.id) / f"gate-{action.attempt}.json", data)
    draft_file = ctx.ws.audit_dir(record.id) / f"draft-{record.work.draft_rounds}.lean"
    return Outcome(
        action=action,
        gate=gate,
        gate_record=path,
        fingerprint=fp,
        lean_file=ctx.ws.rel(draft_file) if draft_file.is_file() else None,
    )


def _probe_vacuity(
    ctx: EngineContext,
    results: Results,
    record: ResultRecord,
    action: Action,
    gate: GateOutput,
    draft: DraftOutput,
) -> GateOutput:
    """A statement Lean can refute from its hypotheses alone proves nothing: block it."""
    from paperlint.validate.vacuity import probe_draft

    statement_only = record.kind in STATEMENT_ONLY_KINDS
    context = base_context(ctx, results, record)
    if statement_only:
        context = leantext.context_for(
            ctx.settings.header, [*context.accepted, *draft.definitions, draft.statement]
        )
    # Called on the verifier directly: a probe nobody answered is no evidence either way, and
    # must not stop the run the way an unavailable check of the statement itself would.
    probe = probe_draft(
        ctx.verifier,
        context,
        draft,
        timeout_s=ctx.settings.lean_timeout_s,
        statement_only=statement_only,
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
        return gate
    folder = ctx.ws.audit_dir(record.id)
    _write_json(
        ctx,
        folder / f"vacuity-{action.attempt}.json",
        {"schema": "paperlint.vacuity/1", "witness": probe.witness, "reason": probe.reason()},
    )
    reasons = [*gate.reasons, probe.reason() or "vacuous statement"]
    return gate.model_copy(update={"decision": "BLOCK", "reasons": reasons})


def _prove(ctx: EngineContext, results: Results, record: ResultRecord, action: Action) -> Outcome:
    ob = next(o for o in record.work.obligations if o.id == action.obligation)
    proved = [o.proof for o in record.work.obligations if o.proof]
    context = base_context(ctx, results, record)
    for decl in proved:
        context = context.extended(decl)
    inputs = prompts.paper_context(ctx, record, results)
    inputs.update(
        obligation={"id": ob.id, "lean": ob.skeleton},
        step=prompts.step(record, ob.id),
        lean_context=prompt_context(ctx, results, record, [d for d in proved if d]),
        failed_attempts=prompts.failed_attempts(ctx, ob, ctx.settings.failed_attempts_in_prompt),
    )
    prover = _ask(ctx, "prover", "prover", action, inputs, ProverOutput, model=action.model)
    folder = ctx.ws.audit_dir(record.id) / "attempts"
    file = _write_text(ctx, folder / f"{safe_name(ob.id)}-{action.attempt}.lean", prover.lean)
    problem = _proof_problem(ob.skeleton, prover.lean)
    if problem:
        return Outcome(
            action=action,
            prover=prover,
            proof=ProofCheck(file=file, accepted=False, feedback=problem),
        )
    check = _lean(
        ctx,
        action,
        "check",
        ctx.verifier.check(context, prover.lean, timeout_s=ctx.settings.lean_timeout_s),
    )
    accepted = check.outcome is LeanOutcome.ACCEPTED
    feedback = "" if accepted else ports.feedback(prover.lean, check)
    return Outcome(
        action=action,
        prover=prover,
        proof=ProofCheck(
            file=file,
            accepted=accepted,
            feedback=feedback,
            timed_out=check.outcome is LeanOutcome.TIMEOUT,
        ),
        accepted_text=prover.lean.strip() if accepted else None,
    )


def _proof_problem(skeleton: str, candidate: str) -> str:
    """The candidate must keep the gated statement and may only fill its `sorry`."""
    refused = ports.refusals(candidate, allow_sorry=False)
    if refused:
        return "refused before Lean: " + "; ".join(refused[:5])
    target = leantext.parse_declaration(skeleton)
    if target is None:
        return "the obligation's skeleton could not be parsed"
    found = ports.fingerprints(candidate, target.name)
    if len(found) != 1:
        return f"the answer must contain exactly one declaration named {target.name}"
    if found[0] != ports.fingerprint(skeleton):
        return f"the statement of {target.name} was changed; only its proof may be written"
    return ""


def _check_issue(
    ctx: EngineContext, results: Results, record: ResultRecord, action: Action
) -> Outcome:
    inputs = prompts.paper_context(ctx, record, results)
    suspicion = record.work.suspicion
    ob = next(
        (o for o in record.work.obligations if suspicion and o.id == suspicion.obligation), None
    )
    inputs.update(
        proof=prompts.proof_text(ctx, record),
        steps=prompts.steps(record),
        step=prompts.step(record, ob.id if ob else None),
        suspected_issue=_suspected(record),
        source_excerpt=prompts.source_excerpt(ctx, record),
        lean_context=prompt_context(ctx, results, record),
        failed_attempts=prompts.failed_attempts(ctx, ob, ctx.settings.failed_attempts_in_prompt)
        if ob
        else [],
    )
    ruling = _ask(ctx, "issue_checker", "issue_checker", action, inputs, IssueRuling)
    folder = ctx.ws.audit_dir(record.id)
    path = _write_json(
        ctx,
        folder / "issue.json",
        {"schema": "paperlint.issue-ruling/1", **ruling.model_dump(mode="json")},
    )
    quote_file, quote_line = (
        locate_quote(ctx, record, ruling.quote) if ruling.is_issue else (None, None)
    )
    cex = None
    hashes: dict[str, str] = {ctx.ws.rel(folder / "issue.json"): _sha(folder / "issue.json")}
    if ruling.is_issue and ruling.issue_class == "ERROR":
        cex = _counterexample(ctx, results, record, action, ruling)
        if cex.accepted:
            hashes[cex.file] = _sha(ctx.ws.root / cex.file)
    return Outcome(
        action=action,
        ruling=ruling,
        ruling_record=path,
        quote_file=quote_file,
        quote_line=quote_line,
        counterexample=cex,
        hashes=hashes,
    )


def locate_quote(
    ctx: EngineContext, record: ResultRecord, quote: str
) -> tuple[str | None, int | None]:
    """Find the quote verbatim in the kept source, preferring the result's own file."""
    if not quote.strip():
        return None, None
    paper = ctx.paper_result(record.id)
    files = [paper.span.file, *[f.path for f in ctx.inventory.files if f.path != paper.span.file]]
    for rel in files:
        path = ctx.ws.source / rel
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        index = text.find(quote)
        if index >= 0:
            return rel, text.count("\n", 0, index) + 1
    return None, None


def _counterexample(
    ctx: EngineContext, results: Results, record: ResultRecord, action: Action, ruling: IssueRuling
) -> CounterexampleCheck:
    draft = record.work.draft
    lean_name = ctx.lean_names.get(record.id, "result")
    name = f"{lean_name}_counterexample"
    statement = leantext.refutation_statement(draft.statement, name) if draft else None
    module = ctx.modules.get(record.id, f"lean/{safe_name(record.id)}.lean").removesuffix(".lean")
    path = ctx.ws.root / f"{module}_counterexample.lean"
    rel = ctx.ws.rel(path)
    if statement is None or not ruling.counterexample:
        return CounterexampleCheck(
            file=rel, accepted=False, axioms_ok=False, detail="no counterexample"
        )
    body = leantext.parse_declaration(ruling.counterexample)
    proof = body.body if body and body.body else ruling.counterexample
    declaration = leantext.with_body(statement, proof)
    refused = ports.refusals(declaration, allow_sorry=False)
    context = base_context(ctx, results, record)
    text = leantext.module_text(context, declaration)
    write_text_atomic(path, text)
    if refused:
        return CounterexampleCheck(
            file=rel, accepted=False, axioms_ok=False, detail="; ".join(refused)
        )
    final = _final_check(ctx, action, path, name)
    axioms = final.axioms.get(name)
    axioms_ok = axioms is not None and set(axioms) <= STANDARD_AXIOMS
    write_json_atomic(path.with_suffix(".check.json"), final.model_dump(mode="json"))
    return CounterexampleCheck(
        file=rel, accepted=final.clean, axioms_ok=axioms_ok, detail="; ".join(final.errors[:3])
    )


def _review_issue(
    ctx: EngineContext, results: Results, record: ResultRecord, action: Action
) -> Outcome:
    inputs = prompts.paper_context(ctx, record, results)
    ruling = record.work.ruling
    cex = record.work.counterexample
    cex_text = (
        (ctx.ws.root / cex.file).read_text(encoding="utf-8") if cex and cex.accepted else None
    )
    inputs.update(
        proof=prompts.proof_text(ctx, record),
        steps=prompts.steps(record),
        suspected_issue={
            "raised_by": "issue_checker",
            "step": record.work.suspicion.obligation if record.work.suspicion else None,
            "description": ruling.explanation if ruling else "",
            "issue_class": ruling.issue_class if ruling else None,
            "quote": ruling.quote if ruling else "",
        },
        lean_context=prompt_context(ctx, results, record),
        counterexample=prompts.clip(cex_text, prompts.MAX_LEAN) if cex_text else None,
        lean_feedback="the counterexample compiles cleanly with standard axioms"
        if cex and cex.accepted
        else "",
    )
    review = _ask(ctx, "reviewer", "auditor", action, inputs, ReviewOutput)
    folder = ctx.ws.audit_dir(record.id)
    path = _write_json(
        ctx,
        folder / "issue-review.json",
        {
            "schema": "paperlint.review/1",
            "reviewer": "auditor",
            "raised_by": "issue_checker",
            **review.model_dump(mode="json"),
        },
    )
    quote_file, quote_line = locate_quote(ctx, record, ruling.quote if ruling else "")
    draft_file = folder / f"draft-{record.work.draft_rounds}.lean"
    hashes = {path: _sha(ctx.ws.root / path)}
    if draft_file.is_file():
        hashes[ctx.ws.rel(draft_file)] = _sha(draft_file)
    return Outcome(
        action=action,
        review=review,
        review_record=path,
        quote_file=quote_file,
        quote_line=quote_line,
        lean_file=ctx.ws.rel(draft_file) if draft_file.is_file() else None,
        hashes=hashes,
    )


def _audit(ctx: EngineContext, results: Results, record: ResultRecord, action: Action) -> Outcome:
    draft = record.work.draft
    assert draft is not None
    context = base_context(ctx, results, record)
    proofs = [o.proof for o in record.work.obligations if o.proof]
    module = ctx.modules.get(record.id, f"lean/{safe_name(record.id)}.lean")
    path = ctx.ws.root / module
    text = leantext.module_text(context, "\n\n".join(proofs))
    write_text_atomic(path, text)
    final = _final_check(ctx, action, path, draft.lean_name)
    folder = ctx.ws.audit_dir(record.id)
    record_path = _write_json(
        ctx,
        folder / "final-check.json",
        {"schema": "paperlint.final-check/1", **final.model_dump(mode="json")},
    )
    axioms = final.axioms.get(draft.lean_name)
    main = next((o.proof for o in record.work.obligations if o.id == "main" and o.proof), "")
    fingerprint_ok = bool(main) and ports.fingerprint(main) == record.work.fingerprint
    findings = ports.scan(path, ctx.ws.root)
    audit_final = FinalAudit(
        file=ctx.ws.rel(path),
        clean=final.clean,
        axioms=list(axioms) if axioms is not None else None,
        axioms_ok=axioms is not None and set(axioms) <= STANDARD_AXIOMS,
        hygiene_findings=findings,
        fingerprint_ok=fingerprint_ok,
        record=record_path,
        detail="; ".join(final.errors[:3]) or (final.hint or ""),
    )
    inputs = prompts.paper_context(ctx, record, results)
    inputs.update(
        proof=prompts.proof_text(ctx, record),
        steps=prompts.steps(record),
        # the result's own declarations; the inlined dependencies would grow with the paper
        lean_file=prompts.clip("\n\n".join([*draft.definitions, *proofs]), 12000),
        conditions=[c.model_dump(mode="json") for c in draft.conditions],
        mechanical=(
            f"final build clean: {final.clean}; axioms: {audit_final.axioms}; "
            f"hygiene findings: {findings or 'none'}; gated statement unchanged: {fingerprint_ok}"
        ),
    )
    audit = _ask(ctx, "auditor", "auditor", action, inputs, AuditOutput)
    audit_path = _write_json(
        ctx,
        folder / "final-audit.json",
        {"schema": "paperlint.final-audit/1", **audit.model_dump(mode="json")},
    )
    hashes = {
        ctx.ws.rel(path): _sha(path),
        record_path: _sha(ctx.ws.root / record_path),
        audit_path: _sha(ctx.ws.root / audit_path),
    }
    if record.evidence.gate:
        hashes[record.evidence.gate] = _sha(ctx.ws.root / record.evidence.gate)
    return Outcome(
        action=action,
        final=audit_final,
        audit=audit,
        audit_record=audit_path,
        lean_file=ctx.ws.rel(path),
        hashes=hashes,
    )

"""audit — the trusted checker on the result's modules (its compiles, axioms, kernel replay and
the statement the gate locked), the hygiene scan and fingerprint of the file a referee reads,
then the auditor's review of the route; only an audit that passes every check gives a
`verified_*` verdict.

The self-contained file under `lean/` is written for the referee and scanned, not built: the
checker compiles the same declarations as modules, and its record is the evidence (issue #25;
before it, the file's own cold build and `#print axioms` were, `audits/<id>/final-check.json`).
"""

from __future__ import annotations

from dataclasses import dataclass

from paperlint.agents.inputs import AuditorInputs
from paperlint.agents.outputs import AuditOutput, DraftOutput
from paperlint.domain import STANDARD_AXIOMS, Role
from paperlint.engine import ports, prompts
from paperlint.engine.actions import Action, ActionKind
from paperlint.engine.context import EngineContext
from paperlint.engine.policy import Policy
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
    unfinished,
)
from paperlint.engine.steps.effects import (
    ask,
    base_context,
    check_records,
    sha,
    trusted,
    write_json,
)
from paperlint.engine.steps.restate import SUFFIX
from paperlint.faithful.check import after_proof
from paperlint.lean.checker import RECORD_FILE as CHECKER_FILE
from paperlint.lean.compose import module_text
from paperlint.lean.modules import CheckJob
from paperlint.lean.trusted import (
    TrustedRun,
    gate_lock,
    judgement,
    read_workspace_json,
    verdict_problems,
)
from paperlint.lean.verifier import LeanContext, Outcome
from paperlint.records import audits
from paperlint.records.events import LeanCheckEvent
from paperlint.records.faithfulness import FILE as FAITHFUL_FILE
from paperlint.records.faithfulness import FaithfulnessEvidence, MinimalHypotheses, read_evidence
from paperlint.records.layout import safe_name
from paperlint.records.modules import check_job
from paperlint.records.results import (
    Evidence,
    ResultRecord,
    Stage,
    UnfinishedReason,
    Verdict,
    to_condition,
)
from paperlint.records.slots import (
    Audited,
    audited,
    draft_of,
    fingerprint_of,
    gating,
    obligations_of,
    proving,
    reopened,
)
from paperlint.records.work import FinalAudit
from paperlint.store import write_text_atomic


@dataclass(frozen=True)
class AuditInputs(Given[AuditorInputs]):
    """The prompt's `mechanical` summary is filled in by `run`, after the build."""

    draft: DraftOutput
    context: LeanContext
    proofs: tuple[str, ...]
    module: str  # the result's Lean module file, workspace-relative
    job: CheckJob | None = None  # the trusted checker's job (issue #25)


MINIMAL_NOTE = "minimal hypotheses: "  # the prefix of a result's note on them (#15)


class AuditOutcome(StepOutcome):
    final: FinalAudit
    audit: AuditOutput
    record: str  # audits/<id>/final-audit.json
    lean_file: str
    hashes: dict[str, str] = {}
    # Issue #15: explicit hypotheses Lean accepts the proof without (`name : type`).
    unneeded: list[str] = []


def inputs(record: ResultRecord, view: View) -> AuditInputs:
    ctx, results = view.ctx, view.results
    draft = draft_of(record.work)
    if draft is None:
        raise ValueError(f"{record.id}: an audit needs a draft")  # plan() never asks for one
    proofs = tuple(o.proof for o in obligations_of(record.work) if o.proof)
    prompt = AuditorInputs(
        **prompts.paper_context(ctx, record, results),
        proof=prompts.proof_text(ctx, record),
        steps=prompts.steps(record),
        # the result's own declarations; the inlined dependencies would grow with the paper
        lean_file=prompts.clip("\n\n".join([*draft.definitions, *proofs]), 12000),
        conditions=list(draft.conditions),
    )
    return AuditInputs(
        view.action,
        prompt,
        draft=draft,
        context=base_context(ctx, results, record),
        proofs=proofs,
        module=ctx.modules.get(record.id, f"lean/{safe_name(record.id)}.lean"),
        job=check_job(
            ctx.settings.header,
            check_records(ctx, results, record),
            ctx.deps,
            record.id,
            mode="compare",
        ),
    )


def run(ctx: EngineContext, record: ResultRecord, given: AuditInputs) -> AuditOutcome:
    action, draft = given.action, given.draft
    path = ctx.ws.root / given.module
    write_text_atomic(path, module_text(given.context, "\n\n".join(given.proofs)))
    folder = ctx.ws.audit_dir(record.id)
    proved = obligations_of(record.work)
    main = next((o.proof for o in proved if o.id == "main" and o.proof), "")
    fingerprint_ok = bool(main) and ports.main_fingerprint(main, draft.lean_name) == (
        fingerprint_of(record.work)
    )
    findings = ports.scan(path, ctx.ws.root)
    checker_path, run, problems = _trusted(ctx, record, given)
    verdict = judgement(run, given.job.request if given.job else None) if run else None
    axioms = list(verdict.axioms) if verdict is not None and verdict.axioms is not None else None
    audit_final = FinalAudit(
        file=ctx.ws.rel(path),
        clean=compiled(run),
        axioms=axioms,
        axioms_ok=axioms is not None and set(axioms) <= STANDARD_AXIOMS,
        hygiene_findings=findings,
        fingerprint_ok=fingerprint_ok,
        record=None,
        detail=(run.hint or "") if run is not None and not compiled(run) else "",
        checker=checker_path,
        checker_problems=problems,
    )
    unneeded = []
    if ctx.settings.minimal_hypotheses and audit_final.clean and audit_final.axioms_ok and main:
        unneeded = _minimal_hypotheses(ctx, record, given, main)
    mechanical = (
        f"final build clean: {audit_final.clean}; axioms: {audit_final.axioms}; "
        f"hygiene findings: {findings or 'none'}; gated statement unchanged: {fingerprint_ok}; "
        f"trusted checker: {'; '.join(problems) or 'passed'}"
    )
    if unneeded:
        mechanical += f"; hypotheses the proof does not need: {', '.join(unneeded)}"
    prompt = evolve(given.prompt, mechanical=mechanical)
    audit = ask(ctx, "auditor", Role.AUDITOR, action, prompt, AuditOutput)
    audit_path = write_json(
        ctx,
        folder / "final-audit.json",
        audits.enveloped(audits.FINAL_AUDIT, audit),
    )
    hashes = {ctx.ws.rel(path): sha(path), audit_path: sha(ctx.ws.root / audit_path)}
    if record.evidence.gate:
        hashes[record.evidence.gate] = sha(ctx.ws.root / record.evidence.gate)
    if checker_path is not None:
        hashes[checker_path] = sha(ctx.ws.root / checker_path)
    return AuditOutcome(
        action=action,
        final=audit_final,
        audit=audit,
        record=audit_path,
        lean_file=ctx.ws.rel(path),
        hashes=hashes,
        unneeded=unneeded,
    )


def compiled(run: TrustedRun | None) -> bool:
    """Every module of the run compiled (the checker may still have findings)."""
    if run is None or run.outcome in (Outcome.UNAVAILABLE, Outcome.TIMEOUT):
        return False
    return bool(run.compile) and all(c.exit_code == 0 and not c.timed_out for c in run.compile)


def _trusted(
    ctx: EngineContext, record: ResultRecord, given: AuditInputs
) -> tuple[str | None, TrustedRun | None, list[str]]:
    """The trusted checker on the result's proof module (issue #25): its run's path, the run,
    and every reason it does not support a verified verdict, the gate's lock and the
    conditions included. The verdict rests on this, not on any file's own output."""
    job = given.job
    if job is None:
        return None, None, ["checker-missing: no gated statement to check"]
    run = trusted(ctx, given.action, job, "checker")
    path = write_json(ctx, ctx.ws.audit_dir(record.id) / CHECKER_FILE, run.to_json())
    root = ctx.ws.root
    gate = read_workspace_json(root, record.evidence.gate) if record.evidence.gate else None
    locked = gate_lock(gate, lambda rel: read_workspace_json(root, rel))
    conditions = [c.name for c in given.draft.conditions]
    found = verdict_problems(run, job=job, locked=locked, conditions=conditions)
    return path, run, [f"{rule}: {message}" for rule, message in found]


def _minimal_hypotheses(
    ctx: EngineContext, record: ResultRecord, given: AuditInputs, main: str
) -> list[str]:
    """Re-check the verified proof once per explicit hypothesis removed (#15); the result is
    added to the result's faithfulness record, on the context its other checks ran on, so
    `validate` re-checks every claim on one context. Lean calls only, no model."""
    path = ctx.ws.audit_dir(record.id) / FAITHFUL_FILE
    evidence = read_evidence(path) or FaithfulnessEvidence(result=record.id, context=given.context)
    skipped, previous = None, restate.state(record).previous
    if len(given.proofs) > 1:  # step lemmas: removing a hypothesis changes what they prove
        skipped = "the proof uses step lemmas"
    elif previous is not None and f"theorem {previous.lean_name}{SUFFIX}" in main:
        skipped = "the proof was carried over from the previous version's statement"
    if skipped is not None:
        found = MinimalHypotheses(declaration=main, skipped=skipped)
        evidence = evidence.model_copy(update={"minimal": found})
    else:
        evidence = after_proof(ctx.verifier, evidence, main, timeout_s=ctx.settings.lean_timeout_s)
    write_json(ctx, path, evidence.model_dump(mode="json", by_alias=True))
    minimal = evidence.minimal
    checks = minimal.checks if minimal is not None else ()
    ctx.emit(
        LeanCheckEvent(
            result=record.id,
            obligation=None,
            kind="minimal_hypotheses",
            outcome="unneeded" if minimal and minimal.unneeded else "all_needed",
            code=None,
            checked=sum(1 for c in checks if c.attempt is not None and c.attempt.answered),
            duration_s=0.0,
            replay=ctx.verifier.is_replay,
        )
    )
    return [f"{c.name} : {c.lean_type}" for c in (minimal.unneeded if minimal else ())]


def unneeded_note(hypothesis: str) -> str:
    """What a hypothesis the proof does not need becomes: a note, never a silent drop."""
    return (
        f"{MINIMAL_NOTE}Lean accepts the proof without `{hypothesis}`; the paper may "
        "assume more than it uses (a possible PAPER_ASSUMPTION note) or state less than it "
        "proves (an EXPOSITION remark for the author). The verified statement keeps it."
    )


def apply(record: ResultRecord, outcome: AuditOutcome, policy: Policy) -> ResultRecord:
    final = outcome.final
    new = reopen(record, Audited(final=final, audit=outcome.audit))
    draft, own = draft_of(record.work), gating(record.work)
    evidence = Evidence(
        lean_file=outcome.lean_file,
        lean_name=draft.lean_name if draft else None,
        statement_fingerprint=own.fingerprint,
        gate=record.evidence.gate,
        final_check=final.record,
        axioms=final.axioms,
        audit=outcome.record,
        checker=final.checker,
        hashes={**record.evidence.hashes, **outcome.hashes},
    )
    new = evolve(new, evidence=evidence, stage=Stage.AUDITED)
    problems = audit_problems(outcome)
    if problems and own.proof_kept and not final.clean:
        # A kept proof (a re-gate with the same statement) that no longer builds in the new
        # context is proved again, not failed: it was never proved in this context.
        fresh = evolve(proving(record.work), obligations=reopened(obligations_of(record.work)))
        return reopen(record, evolve(own, proof_kept=False), fresh)
    if problems:
        return unfinished(new, UnfinishedReason.AUDIT_FAILED, problems, stage=Stage.DONE)
    drafted = draft.conditions if draft else []
    conditions = [to_condition(c) for c in drafted]
    verdict = Verdict.VERIFIED_CONDITIONAL if conditions else Verdict.VERIFIED_UNCONDITIONAL
    notes = [n for n in record.notes if not n.startswith(MINIMAL_NOTE)]
    notes += [unneeded_note(h) for h in outcome.unneeded]
    return evolve(new, stage=Stage.DONE, verdict=verdict, conditions=conditions, notes=notes)


def audit_problems(outcome: AuditOutcome) -> str:
    """Every reason the audit fails; empty when it passes."""
    final = outcome.final
    problems: list[str] = []
    if not final.clean:
        problems.append(f"the modules do not compile: {final.detail[:200]}")
    if not final.axioms_ok:
        problems.append(f"axioms outside the standard three: {final.axioms}")
    if final.hygiene_findings:
        problems.append("hygiene: " + "; ".join(final.hygiene_findings[:3]))
    if not final.fingerprint_ok:
        problems.append("the statement's fingerprint differs from the gated one")
    if final.checker is None or final.checker_problems:
        why = "; ".join(final.checker_problems[:3]) or "no trusted checker record"
        problems.append(f"trusted checker: {why}")
    audit = outcome.audit
    if audit.decision != "PASS" or not audit.route_followed:
        problems.append(f"final audit did not pass: {'; '.join(audit.findings[:3])}")
    return " | ".join(problems)


def ready(record: ResultRecord, policy: Policy) -> Action | None:
    """Gated, no issue under review, every obligation proved, no final audit yet."""
    work = record.work
    if not gated(record) or in_issue_review(record) or audited(work).final is not None:
        return None
    if not all(o.status == "proved" for o in obligations_of(work)):
        return None
    return Action(kind=ActionKind.AUDIT, result=record.id)


STEP = Step(
    kind=ActionKind.AUDIT,
    role=Role.AUDITOR,
    stage=Stage.DONE,
    ready=ready,
    inputs=inputs,
    run=run,
    apply=apply,
)

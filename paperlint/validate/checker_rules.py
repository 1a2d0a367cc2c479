"""The trusted checker's record, re-derived (issue #25, docs/checker.md).

A verified verdict rests on `audits/<id>/checker.json`: the run of the checker program on the
modules the records compose to. `validate` recomposes that layout from the gated records
(`paperlint.lean.modules.check_job`, the function the engine called), requires the run to be
of exactly those modules, re-derives every finding from the record's facts
(`paperlint.lean.trusted.verdict_problems`, the engine's function), re-derives the gate's lock
from the gate's own reference run, and checks the verdict's conditions and axioms against
what the record shows. The run's own `outcome` and the gate's copy of the hash are never
read as evidence.

The record is required for every verified result once the run used the checker: a live run
(`replay: false`), or any result of the workspace carrying a checker record or a gate lock. A
replayed workspace from before the checker validates without one, and its report says the
statement was compared by elaboration or by text only.
"""

from __future__ import annotations

from collections.abc import Sequence

from paperlint.lean.checker import RECORD_FILE
from paperlint.lean.modules import CheckJob, Mode, ident
from paperlint.lean.trusted import (
    TrustedRun,
    gate_lock,
    judgement,
    read_run,
    verdict_problems,
)
from paperlint.records.modules import check_job, discharge_job, refutation_job
from paperlint.records.results import ResultRecord
from paperlint.records.slots import reconnected
from paperlint.validate import leanfile
from paperlint.validate.context import Context
from paperlint.validate.model import Check, Finding
from paperlint.validate.redraft import workspace_deps

_RULES = {
    "checker-missing": Check.CHECKER_MISSING,
    "checker-stale": Check.CHECKER_STALE,
    "checker-failed": Check.CHECKER_FAILED,
    "reference-unlocked": Check.REFERENCE_UNLOCKED,
    "statement-changed": Check.STATEMENT_CHANGED,
    "conditions-mismatch": Check.CONDITIONS_MISMATCH,
}


def checker_findings(ctx: Context, record: ResultRecord) -> list[Finding]:
    """Every reason the checker's record does not support this verified verdict."""
    path = record.evidence.checker
    expected = f"{ctx.audit_dir(record.id)}/{RECORD_FILE}"
    if path is None:
        if not checker_claimed(ctx):
            return []
        return [ctx.at(record, Check.CHECKER_MISSING, "the run used the trusted checker; this"
                       " verified result has no checker record")]  # fmt: skip
    if path != expected:
        return [ctx.at(record, Check.CHECKER_MISSING, f"the checker record must be {expected}")]
    run = kept_run(ctx, record, path)
    if isinstance(run, Finding):
        return [run]
    job = checker_job(ctx, record, "compare", named_for(ctx, record, run))
    if job is None:
        message = "the records compose no module layout to compare the checker's run with"
        return [ctx.about(record, path, Check.CHECKER_STALE, message)]
    conditions = [c.name for c in record.conditions]
    found = run_findings(ctx, record, path, run, job, conditions=conditions)
    return found + _cross_findings(ctx, record, path, run, job)


def run_findings(
    ctx: Context,
    record: ResultRecord,
    path: str,
    run: TrustedRun,
    job: CheckJob,
    *,
    conditions: Sequence[str] = (),
    derived: bool = False,
) -> list[Finding]:
    """Every reason the kept `run` does not support what it backs, for the `job` the records
    compose now: the findings re-derived from its record, the gate's lock re-derived from the
    gate's own reference run (`derived`: the job's reference is derived from the locked
    statement, `verdict_problems`). The verified result's proof, an ERROR's counterexample
    and a reconnection's discharge are all judged by this one function."""
    reference = gate_reference(ctx, record)
    locked = gate_lock(ctx.gate(record), ctx.snap.json, reference) if reference else None
    problems = verdict_problems(run, job=job, locked=locked, conditions=conditions,
                                derived=derived)  # fmt: skip
    return [
        ctx.about(record, path, _RULES.get(rule, Check.CHECKER_FINDING), _said(rule, message))
        for rule, message in problems
    ]


def kept_run(ctx: Context, record: ResultRecord, path: str) -> TrustedRun | Finding:
    """The checker run kept at `path`, or the finding that it is unreadable."""
    run = read_run(ctx.snap.json(path))
    if run is None:
        return ctx.about(record, path, Check.CHECKER_FAILED, "unreadable checker run record")
    return run


def _said(rule: str, message: str) -> str:
    return message if rule in _RULES else f"{rule}: {message}"


def _cross_findings(
    ctx: Context, record: ResultRecord, path: str, run: TrustedRun, job: CheckJob
) -> list[Finding]:
    """The verdict's axioms and conditions against what the record shows."""
    verdict = judgement(run, job.request)
    if verdict is None:
        return []
    found: list[Finding] = []
    if verdict.axioms is not None and set(record.evidence.axioms or ()) != set(verdict.axioms):
        message = (
            f"evidence.axioms {record.evidence.axioms} differ from the axioms the checker "
            f"collected, {list(verdict.axioms)}"
        )
        found.append(ctx.at(record, Check.AXIOMS_MISMATCH, message))
    listed = {c.name for c in record.conditions} | set(_discharged(record))
    for name in verdict.hypotheses:
        if leanfile.is_condition_shaped(name) and name not in listed:
            message = f"the checked statement's hypothesis `{name}` is not listed as a condition"
            found.append(ctx.about(record, path, Check.HIDDEN_HYPOTHESIS, message))
    return found


def _discharged(record: ResultRecord) -> list[str]:
    found = reconnected(record.work)
    return [d.condition for d in found.discharges] if found is not None else []


def named_for(ctx: Context, record: ResultRecord, run: TrustedRun | None) -> str:
    """The id the modules of the kept `run` are named by: the result's id, or one it had
    when the run was made, before a revision renumbered it (`records.modules`); its id when
    no id it had names them (the comparison then fails, as it must)."""
    request = run.request if run is not None else None
    module = request.get("reference_module") if isinstance(request, dict) else None
    if isinstance(module, str):
        for rid in sorted(ctx.names.former(record.id)):
            if module.endswith("." + ident(rid)):
                return rid
    return record.id


def gate_reference(ctx: Context, record: ResultRecord) -> CheckJob | None:
    """The reference job the gate's own checker run was of (`trusted.gate_lock` compares the
    two), composed under the id the result had when the gate ran."""
    gate = ctx.gate(record)
    reference = gate.get("reference") if isinstance(gate, dict) else None
    path = reference.get("run") if isinstance(reference, dict) else None
    run = read_run(ctx.snap.json(path)) if isinstance(path, str) else None
    return checker_job(ctx, record, "reference", named_for(ctx, record, run))


def checker_job(
    ctx: Context, record: ResultRecord, mode: Mode, named_as: str | None = None
) -> CheckJob | None:
    """The layout the engine built for `record`, recomposed from the gated records (under
    `named_as`, the id its kept run names: `named_for`)."""
    deps = workspace_deps(ctx.snap)
    if deps is None:
        return None
    return check_job(ctx.header, ctx.records, deps, record.id, mode=mode, named_as=named_as)


def refuting_job(
    ctx: Context, record: ResultRecord, declaration: str, named_as: str | None = None
) -> CheckJob | None:
    """The layout the engine built for an ERROR's counterexample `declaration`."""
    deps = workspace_deps(ctx.snap)
    if deps is None:
        return None
    return refutation_job(ctx.header, ctx.records, deps, record.id, declaration, named_as)


def discharging_job(
    ctx: Context,
    record: ResultRecord,
    declaration: str,
    predecessors: Sequence[str],
    named_as: str | None = None,
) -> CheckJob | None:
    """The layout the engine built for a reconnection's discharge `declaration`."""
    deps = workspace_deps(ctx.snap)
    if deps is None:
        return None
    return discharge_job(
        ctx.header, ctx.records, deps, record.id, declaration, predecessors, named_as
    )


def checker_claimed(ctx: Context) -> bool:
    """The run used the trusted checker: a live run, or any checker record or gate lock."""
    if ctx.snap.meta.get("replay") is False:
        return True
    for record in ctx.records.values():
        if record.evidence.checker:
            return True
        gate = ctx.gate(record)
        if isinstance(gate, dict) and gate.get("reference"):
            return True
    return any(p.endswith(f"/{RECORD_FILE}") for p in ctx.snap.files if p.startswith("audits/"))

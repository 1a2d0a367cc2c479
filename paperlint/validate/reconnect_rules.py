"""Reconnection (issue #14): a condition of kind iii discharged by the predecessor's theorem.

A discharge counts only if it re-derives: the recorded reconnection is the one its record file
holds; each discharged hypothesis is a gated clause of a predecessor that is verified
unconditionally, under the name and fingerprint recorded; the Lean file on disk is exactly
what the gated records compose to (the conditional theorem's module, then the declaration that
applies it to the predecessors' theorems, recomposed here from the gated statement); its
hygiene scan is clean; the trusted checker's run is of exactly the layout the records compose
(`modules.discharge_job`), with no finding and the gate's lock, re-derived with the function
that judges a verified result (issue #25) — a workspace from before the checker carries the
file's own clean build with only the standard axioms instead —; and every file is hashed.
Anything less discharges nothing, and the conditions rules then see an unconditional verdict
with its conditions still gated.
"""

from __future__ import annotations

from paperlint.lean.compose import context_for, discharge_declaration, module_text
from paperlint.lean.trusted import judgement
from paperlint.lean.verifier import STANDARD_AXIOMS
from paperlint.records.results import ConditionKind, ResultRecord, Verdict
from paperlint.records.slots import (
    RECONNECT_SCHEMA,
    Discharge,
    Reconnection,
    draft_of,
    obligations_of,
    reconnected,
)
from paperlint.validate import leanfile
from paperlint.validate.checker_rules import (
    checker_claimed,
    discharging_job,
    kept_run,
    named_for,
    run_findings,
)
from paperlint.validate.context import Context
from paperlint.validate.model import Check, Finding
from paperlint.validate.reconstruct import base_context


def reconnection_findings(ctx: Context, record: ResultRecord) -> tuple[list[Finding], set[str]]:
    """What disagrees with the record's reconnection, and the hypotheses it validly discharged
    (none when anything disagrees)."""
    found = reconnected(record.work)
    if found is None:
        return [], set()
    checked = found.checker is not None or checker_claimed(ctx)
    problems = [
        *_record_problems(ctx, found),
        *(p for d in found.discharges for p in _discharge_problems(ctx, record, d)),
        *_module_problems(ctx, record, found),
        *(_checker_problems(ctx, record, found) if checked else _check_problems(ctx, found)),
        *_hash_problems(record, found),
    ]
    if problems:
        path = found.file or found.record
        return [ctx.about(record, path, Check.DISCHARGE_INVALID, p) for p in problems], set()
    return [], {d.condition for d in found.discharges}


def _record_problems(ctx: Context, found: Reconnection) -> list[str]:
    data = ctx.snap.json(found.record)
    if data is None:
        return [f"no reconnection record at {found.record}"]
    if data != {"schema": RECONNECT_SCHEMA, **found.model_dump(mode="json")}:
        return [f"{found.record} differs from the engine state's reconnection"]
    return []


def _discharge_problems(ctx: Context, record: ResultRecord, d: Discharge) -> list[str]:
    draft = draft_of(record.work)
    gated = {c.name: c for c in draft.conditions} if draft else {}
    clause = gated.get(d.condition)
    if clause is None or clause.kind != ConditionKind.CLAUSE_UNVERIFIED:
        return [f"`{d.condition}` is not a gated clause condition (kind iii) of the result"]
    if clause.result != d.result:
        return [f"`{d.condition}` is a clause of {clause.result!r}, not of {d.result!r}"]
    pred = ctx.records.get(d.result)
    if pred is None or pred.verdict is not Verdict.VERIFIED_UNCONDITIONAL:
        return [f"`{d.condition}`: {d.result} is not verified unconditionally"]
    name = pred.evidence.lean_name or (
        drafted.lean_name if (drafted := draft_of(pred.work)) else None
    )
    if name != d.by:
        return [f"`{d.condition}` is discharged by `{d.by}`, not {d.result}'s theorem `{name}`"]
    if pred.evidence.statement_fingerprint != d.fingerprint:
        return [f"`{d.condition}`: {d.result}'s statement changed since the discharge"]
    return []


def _module_problems(ctx: Context, record: ResultRecord, found: Reconnection) -> list[str]:
    draft = draft_of(record.work)
    base = base_context(ctx, record)
    if draft is None or base is None or found.file is None:
        return ["the gated records do not compose a reconnection module"]
    composed = discharge_declaration(
        draft.statement,
        name=draft.lean_name,
        new_name=found.name,
        by={d.condition: d.by for d in found.discharges},
    )
    if composed.text is None:
        return [f"no discharge composes from the gated statement: {composed.why}"]
    if found.declaration != composed.text:
        return ["the recorded declaration is not the one the gated records compose to"]
    proofs = [o.proof for o in obligations_of(record.work) if o.proof]
    expected = module_text(context_for(ctx.header, [*base.accepted, *proofs]), composed.text)
    if ctx.snap.text(found.file) != expected:
        return [f"{found.file} is not the module the gated records compose to"]
    hygiene = leanfile.hygiene_findings(found.file, ctx.snap.files)
    return [f"hygiene: {f.rule.value}: {f.message}" for f in hygiene[:3]]


def _check_problems(ctx: Context, found: Reconnection) -> list[str]:
    from paperlint.validate.verified_rules import parsed_axioms, unclean

    data = ctx.snap.json(found.final_check)
    if data is None or found.file is None:
        return [f"no final check of the reconnection at {found.final_check}"]
    problems = [f"final check: {p}" for p in unclean(data)]
    if data.get("file_sha256") != ctx.snap.sha256(found.file):
        problems.append(f"the final check was of other bytes than {found.file}")
    axioms = (data.get("axioms") or {}).get(found.name)
    if not isinstance(axioms, list) or not set(axioms) <= STANDARD_AXIOMS:
        problems.append(f"`{found.name}` depends on axioms {axioms}")
    elif set(parsed_axioms(data, found.name) or ()) != set(axioms) or found.axioms != axioms:
        problems.append(f"the axioms recorded for `{found.name}` disagree with Lean's output")
    return problems


def _checker_problems(ctx: Context, record: ResultRecord, found: Reconnection) -> list[str]:
    """The trusted checker's run on the discharge (issue #25), re-derived."""
    if found.checker is None or found.declaration is None:
        return ["the run used the trusted checker; this discharge has no checker run"]
    run = kept_run(ctx, record, found.checker)
    if isinstance(run, Finding):
        return [run.message]
    predecessors = [d.result for d in found.discharges]
    job = discharging_job(ctx, record, found.declaration, predecessors, named_for(ctx, record, run))
    if job is None:
        return ["the records compose no discharge layout to compare the checker's run with"]
    conditions = [c.name for c in record.conditions]
    findings = run_findings(ctx, record, found.checker, run, job, conditions=conditions,
                            derived=True)  # fmt: skip
    problems = [f"trusted checker: {f.rule.value}: {f.message}" for f in findings]
    verdict = judgement(run, job.request)
    axioms = list(verdict.axioms) if verdict is not None and verdict.axioms is not None else None
    if axioms is None or not set(axioms) <= STANDARD_AXIOMS or found.axioms != axioms:
        problems.append(f"the axioms recorded for `{found.name}` are not the checker's {axioms}")
    return problems


def _hash_problems(record: ResultRecord, found: Reconnection) -> list[str]:
    files = [found.record, found.file, found.final_check, found.checker]
    missing = [f for f in files if f and f not in record.evidence.hashes]
    return [f"{f} is not among the hashed evidence" for f in missing]

"""reconnect — a result proved with a predecessor's clause as a parameter (condition kind iii)
is revisited once that predecessor is verified unconditionally (issue #14).

The engine, not a model, composes one declaration: the gated statement without the clause's
hypothesis, proved by applying the conditional theorem to the predecessor's theorem
(`compose.discharge_declaration`). The verifier checks it on the result's context (fast
feedback); then the trusted checker judges it like a proof (`modules.discharge_job`, issue
#25): its type must be exactly the gated statement without the discharged hypotheses,
elaborated from gated material only, its axioms the standard ones, every constant replayed.
The self-contained file written beside the result's module is for a referee to read, and is
scanned, not built. Only if all of that passes does `apply` drop the discharged conditions
(unconditional when none is left); otherwise the result stays conditional and its notes say
why (a clause that is not the predecessor's statement is a type mismatch Lean reports).

Why the case arises: `plan` orders results by dependency, so a successor normally waits. It
proceeds on a clause when the predecessor ended without a verdict that a dependent can use
(unfinished, an issue) and is verified later: after the convergence review re-gates it
(`engine/converge.py`; fixtures/reconnect), after `paperlint revise`, or after a resume.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath

from paperlint.domain import STANDARD_AXIOMS, ConditionKind
from paperlint.engine import ports
from paperlint.engine.actions import Action, ActionKind
from paperlint.engine.context import EngineContext
from paperlint.engine.policy import Policy
from paperlint.engine.steps.base import Step, StepOutcome, View, evolve
from paperlint.engine.steps.effects import (
    LeanUnavailable,
    base_context,
    check_records,
    lean,
    sha,
    trusted,
    write_json,
    write_text,
)
from paperlint.lean.compose import context_for, discharge_declaration, module_text
from paperlint.lean.trusted import gate_lock, judgement, read_workspace_json, verdict_problems
from paperlint.lean.verifier import LeanContext
from paperlint.records.layout import safe_name
from paperlint.records.modules import discharge_job
from paperlint.records.outputs import DraftCondition
from paperlint.records.results import ResultRecord, Results, Stage, Verdict, to_condition
from paperlint.records.slots import (
    RECONNECT_SCHEMA,
    Discharge,
    Reconnection,
    Reconnections,
    audited,
    draft_of,
    obligations_of,
    reconnections,
)
from paperlint.records.work import ResultWork

SUFFIX = "_reconnected"  # the composed declaration's name: the theorem's, with this suffix
NOTE = "reconnected: "
NOT_MADE = "reconnection not made: "


def due(record: ResultRecord, results: Results) -> list[Discharge]:
    """The gated clause hypotheses whose predecessor is now verified unconditionally (pure)."""
    clauses = _clauses(record.work)
    if not clauses:
        return []
    out = []
    for condition in clauses:
        pred = results.get(condition.result or "")
        if pred is None or pred.verdict is not Verdict.VERIFIED_UNCONDITIONAL:
            continue
        name = pred.evidence.lean_name or (
            drafted.lean_name if (drafted := draft_of(pred.work)) else ""
        )
        if name:
            out.append(
                Discharge(
                    condition=condition.name,
                    result=pred.id,
                    by=name,
                    fingerprint=pred.evidence.statement_fingerprint,
                )
            )
    return out


def _clauses(work: ResultWork) -> tuple[DraftCondition, ...]:
    """The clause hypotheses naming a predecessor in the audited standing draft of `work`.

    `plan` asks `revisit` of every settled result for every action it plans, so this is read
    for the same work over and over: it is kept per work object, for as long as that object
    lives. A work object is never changed in place (`ResultWork.with_slot` copies); its entry
    holds it weakly and goes when it does, so the memo keeps nothing alive (a batch, the MCP
    server) and an `id` is not reused while its entry stands."""
    kept = _CLAUSES.get(id(work))
    if kept is not None and kept[0]() is work:
        return kept[1]
    draft = draft_of(work)
    found: tuple[DraftCondition, ...] = ()
    if draft is not None and audited(work).final is not None:
        found = tuple(
            c for c in draft.conditions if c.kind == ConditionKind.CLAUSE_UNVERIFIED and c.result
        )

    def forget(_: weakref.ref[ResultWork], key: int = id(work)) -> None:
        _CLAUSES.pop(key, None)

    _CLAUSES[id(work)] = (weakref.ref(work, forget), found)
    return found


_CLAUSES: dict[int, tuple[weakref.ref[ResultWork], tuple[DraftCondition, ...]]] = {}


def revisit(record: ResultRecord, results: Results, policy: Policy) -> Action | None:
    """A verified result with a clause its predecessor now proves, not yet tried for it."""
    if record.stage is not Stage.DONE or record.verdict not in (
        Verdict.VERIFIED_CONDITIONAL,
        Verdict.VERIFIED_UNCONDITIONAL,
    ):
        return None
    wanted = due(record, results)
    if not wanted:
        return None
    tried = reconnections(record.work)
    if tried and tried[-1].discharges == wanted:
        return None
    return Action(kind=ActionKind.RECONNECT, result=record.id)


def ready(record: ResultRecord, policy: Policy) -> Action | None:
    return None  # a reconnection reads the predecessors' records: see `revisit`


@dataclass(frozen=True)
class ReconnectInputs:
    action: Action
    discharges: tuple[Discharge, ...]
    gated: str  # the gated statement of the conditional theorem
    name: str  # the conditional theorem's Lean name
    context: LeanContext  # the result's context with its own proofs: where the discharge is checked
    module: str  # the composed module's file, workspace-relative
    attempt: int  # this reconnection's number: its files are named with it
    records: Mapping[str, ResultRecord]  # it and its dependencies: the checker's layout
    remaining: tuple[str, ...]  # the conditions left once these are discharged


class ReconnectOutcome(StepOutcome):
    reconnection: Reconnection
    hashes: dict[str, str] = {}


def inputs(record: ResultRecord, view: View) -> ReconnectInputs:
    ctx, draft = view.ctx, draft_of(record.work)
    if draft is None:
        raise ValueError(f"{record.id}: a reconnection needs a draft")  # revisit never asks
    base = base_context(ctx, view.results, record)
    proofs = [o.proof for o in obligations_of(record.work) if o.proof]
    own = PurePosixPath(ctx.modules.get(record.id, f"lean/{safe_name(record.id)}.lean"))
    n = len(reconnections(record.work)) + 1  # an earlier accepted one keeps its own files
    discharges = tuple(due(record, view.results))
    gone = {d.condition for d in discharges}
    return ReconnectInputs(
        view.action,
        discharges,
        draft.statement,
        draft.lean_name,
        context_for(ctx.settings.header, [*base.accepted, *proofs]),
        str(own.with_name(f"{own.stem}_reconnect_{n}.lean")),
        n,
        check_records(ctx, view.results, record),
        tuple(c.name for c in draft.conditions if c.name not in gone),
    )


def run(ctx: EngineContext, record: ResultRecord, given: ReconnectInputs) -> ReconnectOutcome:
    new_name = given.name + SUFFIX
    folder = ctx.ws.audit_dir(record.id)
    found = Reconnection(
        discharges=list(given.discharges),
        name=new_name,
        accepted=False,
        record=ctx.ws.rel(folder / f"reconnect-{given.attempt}.json"),
    )
    composed = discharge_declaration(
        given.gated,
        name=given.name,
        new_name=new_name,
        by={d.condition: d.by for d in given.discharges},
    )
    hashes: dict[str, str] = {}
    if composed.text is None:
        found = evolve(found, detail=composed.why)
    else:
        found = evolve(found, declaration=composed.text)
        try:
            found, hashes = _check(ctx, record, given, composed.text, found)
        except LeanUnavailable as exc:  # no evidence either way: the verdict stands as it is
            found = evolve(found, detail=f"Lean did not answer: {exc}")
    data = {"schema": RECONNECT_SCHEMA, **found.model_dump(mode="json")}
    path = write_json(ctx, ctx.ws.root / found.record, data)
    hashes[path] = sha(ctx.ws.root / path)
    return ReconnectOutcome(action=given.action, reconnection=found, hashes=hashes)


def _check(
    ctx: EngineContext,
    record: ResultRecord,
    given: ReconnectInputs,
    text: str,
    found: Reconnection,
) -> tuple[Reconnection, dict[str, str]]:
    """The warm check, then the trusted checker and the hygiene scan of the file (effects)."""
    timeout = ctx.settings.lean_timeout_s
    warm = ctx.verifier.check(given.context, text, timeout_s=timeout)
    lean(ctx, given.action, "reconnect", warm)
    if not warm.accepted:
        why = f"Lean rejected the discharge: {ports.feedback(text, warm)}"
        return evolve(found, detail=why), {}
    path = ctx.ws.root / given.module
    write_text(ctx, path, module_text(given.context, text))  # the file a referee reads
    hashes = {ctx.ws.rel(path): sha(path)}
    found = evolve(found, file=ctx.ws.rel(path))
    predecessors = [d.result for d in given.discharges]
    job = discharge_job(ctx.settings.header, given.records, ctx.deps, record.id, text, predecessors)
    if job is None:
        why = (
            "the records compose no discharge to check (is each predecessor a verified dependency?)"
        )
        return evolve(found, detail=why), hashes
    run = trusted(ctx, given.action, job, "reconnect")
    folder = ctx.ws.audit_dir(record.id)
    checker = write_json(ctx, folder / f"reconnect-{given.attempt}-checker.json", run.to_json())
    hashes[checker] = sha(ctx.ws.root / checker)
    root = ctx.ws.root
    gate = read_workspace_json(root, record.evidence.gate) if record.evidence.gate else None
    locked = gate_lock(gate, lambda rel: read_workspace_json(root, rel))
    problems = verdict_problems(
        run, job=job, locked=locked, conditions=given.remaining, derived=True
    )
    verdict = judgement(run, job.request)
    axioms = list(verdict.axioms) if verdict is not None and verdict.axioms is not None else None
    found_problems = [
        *(f"{rule}: {message}" for rule, message in problems),
        *([] if axioms is not None and set(axioms) <= STANDARD_AXIOMS else [f"axioms {axioms}"]),
        *(f"hygiene: {f}" for f in ports.scan(path, ctx.ws.root)[:2]),
    ]
    checked = evolve(
        found,
        accepted=not found_problems,
        checker=checker,
        axioms=axioms,
        detail="; ".join(found_problems[:3]),
    )
    return checked, hashes


def apply(record: ResultRecord, outcome: ReconnectOutcome, policy: Policy) -> ResultRecord:
    """Upgrade only through the accepted Lean evidence; otherwise stay as verified (on an
    earlier accepted reconnection, if any), with why."""
    found = outcome.reconnection
    tried = [*reconnections(record.work), found]
    new = evolve(record, work=record.work.with_slot(Reconnections(tried=tried)))
    if not found.accepted:
        notes = [n for n in record.notes if not n.startswith(NOT_MADE)]
        return evolve(new, notes=[*notes, NOT_MADE + found.detail[:400]])
    notes = [n for n in record.notes if not n.startswith((NOTE, NOT_MADE))]
    gone = {d.condition for d in found.discharges}
    drafted = drafted.conditions if (drafted := draft_of(record.work)) else []
    remaining = [to_condition(c) for c in drafted if c.name not in gone]
    verdict = Verdict.VERIFIED_CONDITIONAL if remaining else Verdict.VERIFIED_UNCONDITIONAL
    what = ", ".join(f"{d.condition} by {d.by} ({d.result})" for d in found.discharges)
    evidence = evolve(record.evidence, hashes={**record.evidence.hashes, **outcome.hashes})
    return evolve(
        new,
        verdict=verdict,
        conditions=remaining,
        evidence=evidence,
        notes=[*notes, f"{NOTE}{what}, in Lean: {found.file} ({found.record})"],
    )


STEP = Step(
    kind=ActionKind.RECONNECT,
    role=None,
    stage=Stage.DONE,
    ready=ready,
    inputs=inputs,
    run=run,
    apply=apply,
    revisit=revisit,
    slot=Reconnections,
)

"""The effects steps share in `run`: asking a role, logging a Lean check, writing evidence,
and building the Lean context a check elaborates on."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from paperlint.agents.faults import no_model
from paperlint.domain import INPUT_KINDS, Role
from paperlint.engine import prompts
from paperlint.engine.actions import Action
from paperlint.engine.context import EngineContext
from paperlint.errors import ModelError
from paperlint.lean.compose import context_for
from paperlint.lean.modules import CheckJob
from paperlint.lean.trusted import TrustedRun, trusted_check
from paperlint.lean.verifier import LeanCheck, LeanContext
from paperlint.lean.verifier import Outcome as LeanOutcome
from paperlint.records.accepted import accepted_declarations
from paperlint.records.events import LeanCheckEvent
from paperlint.records.results import ResultRecord, Results
from paperlint.records.slots import draft_of
from paperlint.store import write_json_atomic, write_text_atomic

T = TypeVar("T", bound=BaseModel)


class LeanUnavailable(Exception):
    """Lean cannot answer (no toolchain, dead server, no recording): stop the run."""


def ask(
    ctx: EngineContext,
    task: str,
    role: Role,
    action: Action,
    inputs: BaseModel,
    expect: type[T],
    *,
    model: str | None = None,
) -> T:
    """One agent call with typed inputs; the answer must be of type `expect`."""
    chosen = model or ctx.settings.models.get(role.value)
    if not chosen:
        raise no_model(role.value)
    reply = ctx.ask(
        task,
        role=role.value,
        result=action.result,
        obligation=action.obligation,
        attempt=action.attempt,
        model=chosen,
        inputs=inputs.model_dump(mode="json"),
    )
    if not isinstance(reply, expect):
        raise ModelError(f"{task}: expected {expect.__name__}, got {type(reply).__name__}")
    return reply


def lean(ctx: EngineContext, action: Action, kind: str, check: LeanCheck) -> LeanCheck:
    """Log a Lean check; an unavailable Lean stops the run."""
    ctx.emit(
        LeanCheckEvent(
            result=action.result,
            obligation=action.obligation,
            kind=kind,
            outcome=check.outcome.value,
            code=check.code.value if check.code else None,
            duration_s=round(check.duration_s, 3),
            replay=check.replay,
        )
    )
    if check.outcome is LeanOutcome.UNAVAILABLE:
        raise LeanUnavailable(check.hint or (check.code.value if check.code else "unavailable"))
    return check


def trusted(ctx: EngineContext, action: Action, job: CheckJob, kind: str) -> TrustedRun:
    """The trusted checker on `job` (issue #25), logged like every Lean check; a checker that
    cannot run stops the run (no verdict can be given without it)."""
    run = trusted_check(ctx.verifier, job, timeout_s=ctx.settings.final_timeout_s)
    _logged(ctx, action, kind, run)
    return run


def _logged(ctx: EngineContext, action: Action, kind: str, answer: TrustedRun) -> None:
    """Log a trusted check by its outcome; an unavailable one stops the run (`lean`)."""
    summary = LeanCheck(
        outcome=answer.outcome,
        code=answer.code,
        hint=answer.hint,
        replay=answer.replay,
        duration_s=answer.duration_s,
    )
    lean(ctx, action, kind, summary)


def write_json(ctx: EngineContext, path: Path, data: Any) -> str:
    write_json_atomic(path, data)
    return ctx.ws.rel(path)


def write_text(ctx: EngineContext, path: Path, text: str) -> str:
    write_text_atomic(path, text)
    return ctx.ws.rel(path)


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def dependency_decls(ctx: EngineContext, results: Results, record: ResultRecord) -> list[str]:
    """The accepted Lean of every transitive dependency, in queue order."""
    decls: list[str] = []
    for dep_id in ctx.deps.get(record.id, []):
        dep = results.get(dep_id)
        if dep is not None:
            decls.extend(accepted_declarations(dep))
    return decls


def check_records(
    ctx: EngineContext, results: Results, record: ResultRecord
) -> dict[str, ResultRecord]:
    """The records a check of `record` composes its modules from: it and its dependencies."""
    found = {rid: r for rid in ctx.deps.get(record.id, []) if (r := results.get(rid)) is not None}
    return {**found, record.id: record}


def base_context(ctx: EngineContext, results: Results, record: ResultRecord) -> LeanContext:
    """The dependencies' accepted Lean, then the result's own definitions."""
    decls = dependency_decls(ctx, results, record)
    draft = draft_of(record.work)
    if draft is not None and record.kind not in INPUT_KINDS:
        decls.extend(draft.definitions)
    return context_for(ctx.settings.header, decls)


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
    draft = draft_of(record.work)
    if draft is not None and record.kind not in INPUT_KINDS:
        decls.extend(draft.definitions)
    decls.extend(extra or [])
    return prompts.lean_context_text(context_for(ctx.settings.header, decls))


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

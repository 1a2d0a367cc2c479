"""Bounded prompt inputs: only what the active work needs, never the whole paper or history.

The shapes are `paperlint.agents.inputs`' models; the runner validates them before rendering.
"""

from __future__ import annotations

from typing import TypedDict

from paperlint.agents.inputs import (
    BibliographyItem,
    Dependency,
    FailedAttempt,
    MacroDefinition,
    ResultText,
)
from paperlint.agents.outputs import ProofStep
from paperlint.engine.context import EngineContext
from paperlint.lean.compose import statement_text_exact
from paperlint.lean.verifier import LeanContext
from paperlint.records.results import ResultRecord, Results, Verdict
from paperlint.records.slots import draft_of, fingerprint_of, plan_of
from paperlint.records.work import Obligation

MAX_TEX = 6000
MAX_FEEDBACK = 1500
MAX_LEAN = 4000
EXCERPT_LINES = 40


def clip(text: str | None, limit: int) -> str:
    text = text or ""
    return text if len(text) <= limit else text[:limit] + "\n… [truncated]"


class PaperFields(TypedDict):
    """The paper context every task's inputs start with (`agents.inputs._PaperContext`)."""

    result: ResultText
    dependencies: list[Dependency]
    macros: list[MacroDefinition]
    bibliography: list[BibliographyItem]


def paper_context(ctx: EngineContext, record: ResultRecord, results: Results) -> PaperFields:
    paper = ctx.paper_result(record.id)
    return PaperFields(
        result=ResultText(
            id=paper.id,
            kind=paper.kind,
            number=paper.number,
            title=paper.title,
            note=paper.note,
            statement=clip(paper.statement, MAX_TEX),
            file=paper.span.file,
            line=paper.span.start_line,
        ),
        dependencies=dependencies(ctx, record, results),
        macros=macros(ctx, paper.statement + (paper.proof.text if paper.proof else "")),
        bibliography=bibliography(ctx, record),
    )


def dependencies(ctx: EngineContext, record: ResultRecord, results: Results) -> list[Dependency]:
    paper = ctx.paper_result(record.id)
    out = []
    for dep_id in dict.fromkeys([*paper.uses, *paper.proof_uses]):
        dep_paper = ctx.inventory.result(dep_id)
        dep = results.get(dep_id)
        if dep_paper is None or dep is None:
            continue
        out.append(
            Dependency(
                id=dep_id,
                kind=dep_paper.kind,
                number=dep_paper.number,
                statement=clip(dep_paper.statement, 2000),
                lean_name=ctx.lean_names.get(dep_id),
                lean=lean_statement_of(dep),
                status=status_of(dep),
            )
        )
    return out


def lean_statement_of(record: ResultRecord) -> str | None:
    draft = draft_of(record.work)
    if draft is None or fingerprint_of(record.work) is None:
        return None
    if not record.verdict_bearing:
        return draft.statement
    return statement_text_exact(draft.statement)


def status_of(record: ResultRecord) -> str:
    """How a dependent may use this result: a proved lemma, or a named hypothesis."""
    if record.verdict in (Verdict.VERIFIED_UNCONDITIONAL, Verdict.VERIFIED_CONDITIONAL):
        return "verified: usable as a proved Lean lemma"
    if not record.verdict_bearing and fingerprint_of(record.work):
        return "gated definition: in scope"
    if record.verdict is Verdict.ISSUE:
        return "issue recorded: use its clause only as a named hypothesis (clause_with_issue)"
    return "not verified: use its clause only as a named hypothesis (clause_unverified)"


def macros(ctx: EngineContext, text: str) -> list[MacroDefinition]:
    return [
        MacroDefinition(name=m.name, definition=m.definition)
        for m in ctx.inventory.macros
        if m.name in text
    ][:40]


def bibliography(ctx: EngineContext, record: ResultRecord) -> list[BibliographyItem]:
    paper = ctx.paper_result(record.id)
    locators = {c.key: c.note for c in paper.citations}
    return [
        BibliographyItem(key=b.key, text=clip(b.text, 600), locator=locators.get(b.key))
        for b in ctx.inventory.bibliography
        if b.key in locators
    ]


def proof_text(ctx: EngineContext, record: ResultRecord) -> str | None:
    proof = ctx.paper_result(record.id).proof
    return clip(proof.text, MAX_TEX) if proof else None


def steps(record: ResultRecord) -> list[ProofStep]:
    plan = plan_of(record.work)
    return list(plan.steps) if plan else []


def step(record: ResultRecord, step_id: str | None) -> ProofStep | None:
    plan = plan_of(record.work)
    if plan is None or step_id is None:
        return None
    return next((s for s in plan.steps if s.id == step_id), None)


def lean_context_text(context: LeanContext) -> str:
    """The header and the statements in scope (proof bodies left out: they cost tokens)."""
    statements = [statement_text_exact(d) for d in context.accepted]
    return clip("\n\n".join([context.header, *statements]), MAX_LEAN)


def failed_attempts(ctx: EngineContext, ob: Obligation, keep: int) -> list[FailedAttempt]:
    out = []
    for failure in ob.failures[-keep:] if keep else []:
        path = ctx.ws.root / failure.file
        lean = path.read_text(encoding="utf-8") if path.is_file() else ""
        out.append(
            FailedAttempt(lean=clip(lean, MAX_LEAN), feedback=clip(failure.feedback, MAX_FEEDBACK))
        )
    return out


def source_excerpt(ctx: EngineContext, record: ResultRecord) -> str:
    """The result's lines of the kept source, numbered, so quotes can be verbatim."""
    paper = ctx.paper_result(record.id)
    path = ctx.ws.source / paper.span.file
    if not path.is_file():
        return ""
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    end = (
        paper.proof.span.end_line
        if paper.proof and paper.proof.span.file == paper.span.file
        else paper.span.end_line
    )
    start = max(paper.span.start_line, 1)
    stop = min(max(end, start), start + EXCERPT_LINES * 3)
    return "\n".join(f"{n}: {lines[n - 1]}" for n in range(start, min(stop, len(lines)) + 1))

"""Rebuild the Lean module the engine writes for a verdict, from the gated records alone.

The engine's final file is pure text composition (`execute._audit`, `execute._counterexample`):
the header, the accepted declarations of the dependencies, the draft's definitions, then the
accepted proofs (or the counterexample). So the file on disk must be byte-for-byte what the
records rebuild. Any edit to the file alone — a deleted definition, an extra lemma, a changed
option — is caught here even when it fools the token-level checks.
"""

from __future__ import annotations

from paperlint.lean.compose import (
    context_for,
    module_text,
    parse_declaration,
    refutation_statement,
    with_body,
)
from paperlint.lean.verifier import LeanContext
from paperlint.records.results import ResultRecord
from paperlint.records.slots import draft_of, obligations_of
from paperlint.validate.context import Context
from paperlint.validate.model import Check, Finding
from paperlint.validate.redraft import draft_context


def base_context(ctx: Context, record: ResultRecord) -> LeanContext | None:
    """`execute.base_context`: the dependencies' declarations plus the draft's definitions."""
    deps = draft_context(ctx.snap, record, ctx.header)
    draft = draft_of(record.work)
    if deps is None or draft is None:
        return None
    return context_for(ctx.header, [*deps.accepted, *draft.definitions])


def proof_module(ctx: Context, record: ResultRecord) -> str | None:
    context = base_context(ctx, record)
    if context is None:
        return None
    proofs = [o.proof for o in obligations_of(record.work) if o.proof]
    return module_text(context, "\n\n".join(proofs))


def counterexample_module(ctx: Context, record: ResultRecord, gated: str) -> str | None:
    context = base_context(ctx, record)
    ruling = ctx.snap.json(f"{ctx.audit_dir(record.id)}/issue.json")
    written = ruling.get("counterexample") if ruling else None
    if context is None or not isinstance(written, str):
        return None
    statement = refutation_statement(gated, f"{record.evidence.lean_name}_counterexample")
    if statement is None:
        return None
    parsed = parse_declaration(written)
    proof = parsed.body if parsed and parsed.body else written
    return module_text(context, with_body(statement, proof))


def rebuilt_findings(
    ctx: Context, record: ResultRecord, path: str, expected: str | None
) -> list[Finding]:
    actual = ctx.snap.text(path)
    if actual is None or expected is None or actual == expected:
        return []  # a missing file or record is reported by the rules that need it
    line = _first_difference(actual, expected)
    message = "the file is not the module the engine writes from the gated records"
    return [ctx.about(record, path, Check.LEAN_FILE_NOT_REBUILT, message, line)]


def _first_difference(actual: str, expected: str) -> int:
    for number, (a, b) in enumerate(
        zip(actual.splitlines(), expected.splitlines(), strict=False), start=1
    ):
        if a != b:
            return number
    return min(len(actual.splitlines()), len(expected.splitlines())) + 1

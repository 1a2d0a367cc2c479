"""Conditions: every input the proof takes beyond the paper's hypotheses is listed and traced.

The gate passed the statement with its binders, so the binders themselves are fixed by the
fingerprint. What is checked here is the bookkeeping around them: an unconditional verdict has
no condition-shaped binder, a conditional one names each condition as a binder of exactly that
type, and each condition's provenance exists in the paper (docs/design.md §5).
"""

from __future__ import annotations

from paperlint.records.results import Condition, ConditionKind, ResultRecord, Verdict
from paperlint.records.slots import draft_of
from paperlint.validate import leanfile
from paperlint.validate.context import Context
from paperlint.validate.model import Check, Finding


def condition_findings(
    ctx: Context,
    record: ResultRecord,
    binders: list[leanfile.DeclaredBinder],
    path: str,
    discharged: frozenset[str] | set[str] = frozenset(),
) -> list[Finding]:
    """`discharged`: the hypotheses a reconnection re-derived in Lean (`reconnect_rules`);
    they are binders of the conditional theorem, no longer conditions of the verdict."""
    found: list[Finding] = []
    listed = {c.name for c in record.conditions} | set(discharged)
    draft = draft_of(record.work)
    gated = [c for c in draft.conditions if c.name not in discharged] if draft else []
    if record.verdict is Verdict.VERIFIED_UNCONDITIONAL and (record.conditions or gated):
        message = "an unconditional verdict with conditions (listed or in the gated draft)"
        found.append(ctx.at(record, Check.UNCONDITIONAL_HAS_CONDITIONS, message))
    if record.verdict is Verdict.VERIFIED_CONDITIONAL and not record.conditions:
        message = "a conditional verdict lists no condition"
        found.append(ctx.at(record, Check.CONDITIONAL_WITHOUT_CONDITIONS, message))
    for binder in binders:
        if leanfile.is_condition_shaped(binder.name) and binder.name not in listed:
            message = f"hypothesis `{binder.name}` is an external input not listed as a condition"
            found.append(ctx.about(record, path, Check.HIDDEN_HYPOTHESIS, message))
    by_name = {b.name: b for b in binders}
    for condition in record.conditions:
        match = by_name.get(condition.name)
        if match is None or leanfile.squash(match.type) != leanfile.squash(condition.lean_type):
            what = "not a hypothesis" if match is None else f"of type `{match.type}`"
            message = f"condition `{condition.name}` is {what} of the Lean theorem"
            found.append(ctx.about(record, path, Check.CONDITION_NOT_HYPOTHESIS, message))
        problem = provenance_problem(ctx, condition)
        if problem:
            found.append(ctx.at(record, Check.CONDITION_PROVENANCE, problem))
    return found


def provenance_problem(ctx: Context, condition: Condition) -> str | None:
    source = condition.source
    name = condition.name
    if condition.kind is ConditionKind.CITED:
        if not source.key or source.key not in ctx.bibliography:
            return f"`{name}` cites {source.key!r}, which is not in the paper's bibliography"
        if not any(source.key in text for text in ctx.source_files().values()):
            return f"`{name}` cites {source.key!r}, which the kept source never mentions"
    elif condition.kind is ConditionKind.ASSERTED:
        quote = source.quote or ""
        if not quote.strip() or not any(quote in t for t in ctx.source_files().values()):
            return f"`{name}` quotes text that does not occur verbatim in source/: {quote[:80]!r}"
    elif condition.kind in (ConditionKind.CLAUSE_UNVERIFIED, ConditionKind.CLAUSE_WITH_ISSUE):
        other = ctx.records.get(source.result or "")
        if other is None:
            return f"`{name}` is a clause of {source.result!r}, which is not a result of the paper"
        if condition.kind is ConditionKind.CLAUSE_WITH_ISSUE and other.verdict is not Verdict.ISSUE:
            return f"`{name}` is a clause of {other.id}, which has no recorded issue"
    return None

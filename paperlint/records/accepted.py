"""The Lean text a result's record lends its dependents: what they may build on."""

from __future__ import annotations

from paperlint.domain import INPUT_KINDS
from paperlint.records.results import ResultRecord, Verdict
from paperlint.records.slots import draft_of, fingerprint_of, obligations_of, reconnected

_VERIFIED = (Verdict.VERIFIED_UNCONDITIONAL, Verdict.VERIFIED_CONDITIONAL)


def accepted_declarations(record: ResultRecord) -> list[str]:
    """The Lean text a dependent may build on: a gated definition, or a verified proof."""
    draft = draft_of(record.work)
    if draft is None or fingerprint_of(record.work) is None:
        return []
    if record.kind in INPUT_KINDS:
        return [*draft.definitions, draft.statement]
    if record.verdict in _VERIFIED:
        proofs = [o.proof for o in obligations_of(record.work) if o.proof]
        # a reconnected result (#14): its unconditional form, for dependents to use
        found = reconnected(record.work)
        composed = [found.declaration] if found is not None and found.declaration else []
        return [*draft.definitions, *proofs, *composed]
    return []

"""The trusted checker's jobs composed from the records (issue #25): each result's material
(gated definitions, gated statement, accepted proofs) read from its record, then the module
layout of `paperlint.lean.modules` built from it. The engine, `validate` and `replay` all call
`check_job`, `refutation_job` and `discharge_job`, so they judge the very same modules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from paperlint.domain import INPUT_KINDS
from paperlint.lean.modules import (
    CheckJob,
    Material,
    Mode,
    compose_discharge,
    compose_job,
    compose_refutation,
)
from paperlint.records.results import ResultRecord, Verdict
from paperlint.records.slots import draft_of, fingerprint_of, obligations_of

_VERIFIED = (Verdict.VERIFIED_UNCONDITIONAL, Verdict.VERIFIED_CONDITIONAL)


def material(record: ResultRecord) -> Material | None:
    """A result's gated material and proofs (None: nothing gated yet)."""
    draft = draft_of(record.work)
    if draft is None or fingerprint_of(record.work) is None:
        return None
    from paperlint.lean.compose import parse_declaration

    is_input = record.kind in INPUT_KINDS
    definitions = (*draft.definitions, draft.statement) if is_input else tuple(draft.definitions)
    names = tuple(p.name for d in definitions if (p := parse_declaration(d)) and p.name)
    proofs = tuple(o.proof for o in obligations_of(record.work) if o.proof)
    return Material(
        id=record.id,
        definitions=tuple(d.strip() for d in definitions),
        statement=None if is_input else draft.statement.strip(),
        lean_name=draft.lean_name,
        approved=names,
        proofs=proofs,
        verified=record.verdict in _VERIFIED,
    )


def check_job(
    header: str,
    records: Mapping[str, ResultRecord],
    deps: Mapping[str, Sequence[str]],
    rid: str,
    *,
    mode: Mode,
) -> CheckJob | None:
    """The checker's job for result `rid` from the records (None: nothing gated to check)."""
    return compose_job(header, _found(records), deps, rid, mode=mode)


def refutation_job(
    header: str,
    records: Mapping[str, ResultRecord],
    deps: Mapping[str, Sequence[str]],
    rid: str,
    declaration: str,
) -> CheckJob | None:
    """The checker's job for an ERROR's counterexample `declaration` (`compose_refutation`)."""
    return compose_refutation(header, _found(records), deps, rid, declaration)


def discharge_job(
    header: str,
    records: Mapping[str, ResultRecord],
    deps: Mapping[str, Sequence[str]],
    rid: str,
    declaration: str,
    predecessors: Sequence[str],
) -> CheckJob | None:
    """The checker's job for a reconnection's discharge `declaration` (`compose_discharge`)."""
    return compose_discharge(header, _found(records), deps, rid, declaration, predecessors)


def _found(records: Mapping[str, ResultRecord]) -> dict[str, Material]:
    return {k: m for k, r in records.items() if (m := material(r)) is not None}

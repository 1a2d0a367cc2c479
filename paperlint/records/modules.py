"""The trusted checker's jobs composed from the records (issue #25): each result's material
(gated definitions, gated statement, accepted proofs) read from its record, then the module
layout of `paperlint.lean.modules` built from it. The engine, `validate` and `replay` all call
`check_job`, `refutation_job` and `discharge_job`, so they judge the very same modules.

The modules are named by the result id (`paperlint.lean.modules.ident`). A revision that
renumbers an unlabelled result carries its records over to the new id
(`paperlint.revise.changes.carried_renames`), and its kept checker runs judged modules named
by the id it had then: `named_as` composes the job under that id, so that a kept run is
compared with the job it was of (`paperlint.validate.checker_rules.named_for`)."""

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
    named_as: str | None = None,
) -> CheckJob | None:
    """The checker's job for result `rid` from the records (None: nothing gated to check)."""
    found, deps, rid = _named(_found(records), deps, rid, named_as)
    return compose_job(header, found, deps, rid, mode=mode)


def refutation_job(
    header: str,
    records: Mapping[str, ResultRecord],
    deps: Mapping[str, Sequence[str]],
    rid: str,
    declaration: str,
    named_as: str | None = None,
) -> CheckJob | None:
    """The checker's job for an ERROR's counterexample `declaration` (`compose_refutation`)."""
    found, deps, rid = _named(_found(records), deps, rid, named_as)
    return compose_refutation(header, found, deps, rid, declaration)


def discharge_job(
    header: str,
    records: Mapping[str, ResultRecord],
    deps: Mapping[str, Sequence[str]],
    rid: str,
    declaration: str,
    predecessors: Sequence[str],
    named_as: str | None = None,
) -> CheckJob | None:
    """The checker's job for a reconnection's discharge `declaration` (`compose_discharge`)."""
    found, deps, rid = _named(_found(records), deps, rid, named_as)
    return compose_discharge(header, found, deps, rid, declaration, predecessors)


def _named(
    found: Mapping[str, Material], deps: Mapping[str, Sequence[str]], rid: str, alias: str | None
) -> tuple[Mapping[str, Material], Mapping[str, Sequence[str]], str]:
    """The layout's inputs with result `rid` under the id `alias` (see the module docstring).
    Whatever holds `alias` now (the result inserted where `rid` was) is left out: it is in no
    layout of `rid`'s, which only the results it depends on make."""
    if alias is None or alias == rid:
        return found, deps, rid

    def name(key: str) -> str:
        return alias if key == rid else key

    renamed = {name(k): m for k, m in found.items() if k != alias}
    chains = {name(k): [name(d) for d in v] for k, v in deps.items() if k != alias}
    return renamed, chains, alias


def _found(records: Mapping[str, ResultRecord]) -> dict[str, Material]:
    return {k: m for k, r in records.items() if (m := material(r)) is not None}

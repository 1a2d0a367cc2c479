"""A result's working state for tests, written flat.

Tests name the working info by the shared fields older state files had (`draft`,
`draft_rounds`, `gates`, `obligations`, `kept`, `ruling`, `final`, …); this puts each one in
the slot of the step that owns it, as a state file of that version reads (`_LEGACY_SLOTS` in
`paperlint.records.state`), so a case table stays a table of values. A ruling or a review set
here answers the suspicion standing after `fields` (an older one makes it stale);
`suspicion` goes to the slot of the step that raised it (`raised_by`, as /5 reads:
`_legacy_shared`); `checked_counterexample` is the counterexample the issue checker judged
(`counterexample`: the gate's)."""

from __future__ import annotations

from typing import Any

import paperlint.engine.steps  # noqa: F401  (the registry: every step's slot type)
from paperlint.records.results import ResultRecord
from paperlint.records.slots import Gated, Proving, Reviewed, Ruled, suspicion_of
from paperlint.records.state import _LEGACY_SLOTS, _legacy_shared
from paperlint.records.work import ResultWork, slot_types

# Flat name -> slot field, by step kind: the old files' shared fields (`_LEGACY_SLOTS`) and the
# issue checker's counterexample, which /4 held in the one `counterexample` field.
FLAT: dict[str, dict[str, str]] = {
    **_LEGACY_SLOTS,
    Ruled.KIND: {**_LEGACY_SLOTS[Ruled.KIND], "checked_counterexample": "counterexample"},
}


def evolved(work: ResultWork, **fields: Any) -> ResultWork:
    """`work` with `fields` set (validated), each in its step's slot; `slots` adds slots."""
    types = slot_types()
    work = work.model_copy(update={"slots": {**work.slots, **fields.pop("slots", {})}})
    answered = [m for name, m in (("ruling", Ruled), ("review", Reviewed)) if name in fields]
    work = _shared(work, fields)
    for kind, moved in FLAT.items():
        own = {new: fields.pop(old) for old, new in moved.items() if old in fields}
        if own:
            model = types[kind]
            work = work.with_slot(model.model_validate({**dict(work.slot(model)), **own}))
    if fields:
        work = ResultWork.model_validate({**dict(work), **fields})
    for model in answered:
        work = work.with_slot(work.slot(model).model_copy(update={"on": suspicion_of(work)}))
    return work


def _shared(work: ResultWork, fields: dict[str, Any]) -> ResultWork:
    """`work` with the old shared `suspicion` and `counterexample` of `fields` (popped) in the
    slots that own them; a `suspicion` of None clears both steps'."""
    cleared = {name: None for name in ("suspicion", "counterexample") if name in fields}
    if cleared:
        work = work.with_slot(work.slot(Gated).model_copy(update=cleared))
        if "suspicion" in cleared:
            work = work.with_slot(work.slot(Proving).model_copy(update={"suspicion": None}))
    raw = {
        name: value.model_dump(mode="json") if hasattr(value, "model_dump") else value
        for name in ("suspicion", "counterexample")
        if (value := fields.pop(name, None)) is not None
    }
    for kind, moved in _legacy_shared(raw).items():
        model = slot_types()[kind]
        work = work.with_slot(model.model_validate({**dict(work.slot(model)), **moved}))
    return work


def work_of(**fields: Any) -> ResultWork:
    """A working state with `fields` set, the rest empty."""
    return evolved(ResultWork(), **fields)


def with_work(record: ResultRecord, **fields: Any) -> ResultRecord:
    """`record` with `fields` of its working state set."""
    return record.with_work(evolved(record.work, **fields))


def flat(work: ResultWork) -> dict[str, Any]:
    """`work` as older state files held it: each slot's fields among the shared ones under
    their old names (`_LEGACY_SLOTS`), every agent output inline (engine-state/1)."""
    data = work.model_dump(mode="json")
    slots = data.pop("slots", {})
    data |= flat_shared(slots)
    for kind, moved in _LEGACY_SLOTS.items():
        own = {**slot_types()[kind]().model_dump(mode="json"), **slots.pop(kind, {})}
        data.update({old: own[new] for old, new in moved.items()})
    return {**data, "slots": slots} if slots else data


def flat_shared(slots: dict[str, Any]) -> dict[str, Any]:
    """The fields /1-/4 shared, from the slots (JSON) that own them now: the suspicion under
    review (the prover's, else the gate's) and the one counterexample field (the checker's
    once it ruled, else the gate's); taken out of the slots."""
    shared: dict[str, Any] = {}
    for kind in (Proving.KIND, Gated.KIND):
        if kind in slots:
            slots[kind] = dict(slots[kind])  # not the caller's
    prover = slots.get(Proving.KIND, {}).pop("suspicion", None)
    gate = slots.get(Gated.KIND, {})
    suspicion, gates = prover or gate.pop("suspicion", None), gate.pop("counterexample", None)
    gate.pop("suspicion", None)
    checked = slots.get(Ruled.KIND, {}).get("counterexample")
    if suspicion is not None:
        shared["suspicion"] = suspicion
    if checked is not None or gates is not None:  # the checker's once it ruled (`_LEGACY_KEYS`)
        shared["counterexample"] = checked if checked is not None else gates
    return shared

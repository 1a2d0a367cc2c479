"""A result's working state built by field name in tests, whichever step's slot holds the
field (issue #27): `work(final=..., draft=...)` puts `final` in the audit step's slot and
`draft` among the shared fields, as the steps themselves would."""

from __future__ import annotations

from typing import Any

from paperlint.engine.steps import gate
from paperlint.records.slots import Audited, Reconnections, Reviewed, Ruled
from paperlint.records.work import ResultWork, Slot

# field name -> (its slot's type, its name there)
SLOT_FIELDS: dict[str, tuple[type[Slot], str]] = {
    "kept": (gate.Kept, "kept"),
    "proof_kept": (gate.Kept, "proof_kept"),
    "reconnections": (Reconnections, "tried"),
    "final": (Audited, "final"),
    "audit": (Audited, "audit"),
    "ruling": (Ruled, "ruling"),  # on the suspicion standing after `fields` (see below)
    "review": (Reviewed, "review"),  # the same
    # the counterexample the issue checker judged (`counterexample`: the gate's)
    "checked_counterexample": (Ruled, "counterexample"),
}


def with_fields(before: ResultWork, **fields: Any) -> ResultWork:
    """`before` with `fields` set: the shared ones in place, the others in their slots."""
    shared = {k: v for k, v in fields.items() if k not in SLOT_FIELDS}
    unknown = sorted(set(shared) - set(ResultWork.model_fields))
    if unknown:
        raise TypeError(f"ResultWork has no field {', '.join(unknown)}")
    new = before.model_copy(update=shared)
    for model in dict.fromkeys(SLOT_FIELDS[k][0] for k in fields if k in SLOT_FIELDS):
        own = {
            SLOT_FIELDS[k][1]: v
            for k, v in fields.items()
            if SLOT_FIELDS.get(k, (None,))[0] is model
        }
        new = new.with_slot(new.slot(model).model_copy(update=own))
    for name, model in (("ruling", Ruled), ("review", Reviewed)):
        if name in fields:  # it answers the suspicion set here (an older one: stale)
            new = new.with_slot(new.slot(model).model_copy(update={"on": new.suspicion}))
    return new


def work(**fields: Any) -> ResultWork:
    """A working state with `fields` set (see `with_fields`)."""
    return with_fields(ResultWork(), **fields)

"""A check's records before any work: one per numbered result of the paper."""

from __future__ import annotations

from collections.abc import Sequence

from paperlint.blueprint.model import Blueprint
from paperlint.domain import INPUT_KINDS
from paperlint.domain import is_verdict_bearing as _bearing
from paperlint.preflight.model import Inventory, Result
from paperlint.records.results import Evidence, ResultRecord, Results, Stage


def is_verdict_bearing(result: Result) -> bool:
    return _bearing(result.kind, result.restates)


def initial_record(result: Result, lean_name: str | None) -> ResultRecord:
    """A result's record before any work: pending, or done at once when nothing is formalised."""
    bearing = is_verdict_bearing(result)
    record = ResultRecord(
        id=result.id,
        number=result.number,
        kind=result.kind,
        verdict_bearing=bearing,
        stage=Stage.PENDING,
        evidence=Evidence(lean_name=lean_name),
    )
    if not bearing and result.kind not in INPUT_KINDS:
        return record.model_copy(
            update={"stage": Stage.DONE, "notes": ["not verdict-bearing; not formalised"]}
        )
    return record


def initial_results(
    inventory: Inventory, blueprint: Blueprint, replay_parts: Sequence[str], paper: str
) -> Results:
    names = {e.id: e.lean_name for e in blueprint.entries}
    return Results(
        replay=bool(replay_parts),
        replay_parts=list(replay_parts),
        paper=paper,
        results=[initial_record(r, names.get(r.id)) for r in inventory.results],
    )

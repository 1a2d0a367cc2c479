"""The records against the inventory and the run: no result dropped or invented, no theorem
turned into a definition to shed its verdict, no replay passed off as a live run."""

from __future__ import annotations

from typing import Any

from paperlint.domain import is_verdict_bearing
from paperlint.validate.context import Context
from paperlint.validate.model import Check, Finding


def inventory_findings(ctx: Context) -> list[Finding]:
    inventory = ctx.snap.json("inventory.json") or {}
    papers = {str(r.get("id")): r for r in inventory.get("results", []) if isinstance(r, dict)}
    found: list[Finding] = []
    for rid in papers:
        if rid not in ctx.records and not _has_schema_error(ctx, rid):
            message = f"result {rid} of the paper has no record in results.json"
            found.append(Finding("results.json", Check.RESULT_MISSING, message, result=rid))
    for record in ctx.records.values():
        paper = papers.get(record.id)
        if paper is None:
            message = f"{record.id} is not a result of the paper (inventory.json)"
            found.append(ctx.at(record, Check.RESULT_UNKNOWN, message))
            continue
        bearing = is_verdict_bearing(str(paper.get("kind")), paper.get("restates"))
        same_number = record.number == paper.get("number")
        if record.kind != paper.get("kind") or record.verdict_bearing != bearing or not same_number:
            message = (
                f"{record.kind} {record.number} (verdict-bearing {record.verdict_bearing}); the "
                f"paper's result is {paper.get('kind')} {paper.get('number')} "
                f"(verdict-bearing {bearing})"
            )
            found.append(ctx.at(record, Check.RECORD_INVENTORY_MISMATCH, message))
    return found


def _has_schema_error(ctx: Context, rid: str) -> bool:
    return any(f.result == rid for f in ctx.snap.record_errors)


def replay_findings(ctx: Context) -> list[Finding]:
    """Evidence served by a replay must be labelled a replay (docs/design.md §6)."""
    replayed = [
        p for p in ctx.snap.files if _says_replay(ctx.snap.json(p) if p.endswith(".json") else None)
    ]
    events = ctx.snap.events or ()
    replayed += ["events.jsonl"] if any(_event_replay(e) for e in events) else []
    if not replayed or not ctx.snap.meta or ctx.snap.meta.get("replay") is True:
        return []
    message = f"results.json says replay: false, but {replayed[0]} records a replayed answer"
    return [Finding("results.json", Check.REPLAY_HIDDEN, message)]


def _says_replay(data: dict[str, Any] | None) -> bool:
    return bool(data) and data is not None and data.get("replay") is True


def _event_replay(event: dict[str, Any]) -> bool:
    value = event.get("replay")
    return value is True or (isinstance(value, list) and bool(value))

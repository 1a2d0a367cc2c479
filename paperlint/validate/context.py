"""What every rule may look up besides the record it checks: the other results, the paper's
bibliography and kept source, the gated Lean texts, and the header the engine writes."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from paperlint.domain import SECOND_DRAFT_FILE
from paperlint.lean.compose import header, parse_declaration
from paperlint.records.history import EventNames, event_names
from paperlint.records.layout import safe_name
from paperlint.records.results import ResultRecord
from paperlint.records.slots import draft_of
from paperlint.validate.model import Check, Finding, Snapshot

DEFAULT_HEARTBEATS = 400_000
_GATE_FILE = re.compile(r"gate-(\d+)\.json$")
_DRAFT_FILE = re.compile(r"/draft-(\d+)\.json$")


def latest_draft(snap: Snapshot, folder: str) -> str | None:
    """The last draft round's record: a gate reviews the draft just before it, and no draft
    follows a PASS (a failed type-check adds a round without a gate)."""
    rounds = [(int(m.group(1)), p) for p in snap.listing(folder) if (m := _DRAFT_FILE.search(p))]
    return max(rounds)[1] if rounds else None


def reviewed_draft(snap: Snapshot, gate_path: str) -> str | None:
    """The draft record the gate at `gate_path` passed: the last draft round, or the
    independent second draft when the gate ruled it the paper's reading (#15)."""
    folder = gate_path.rsplit("/", 1)[0]
    gate = snap.json(gate_path)
    faithful = gate.get("faithfulness") if isinstance(gate, dict) else None
    if isinstance(faithful, dict) and faithful.get("gated_draft") == "second":
        path = f"{folder}/{SECOND_DRAFT_FILE}"
        return path if snap.json(path) is not None else None
    return latest_draft(snap, folder)


@dataclass(frozen=True)
class Context:
    snap: Snapshot
    records: dict[str, ResultRecord]
    bibliography: frozenset[str]
    header: str
    gated: dict[str, str] = field(default_factory=dict)  # Lean name -> gated declaration text
    # which result each event names now, across revisions (`paperlint.records.history`)
    names: EventNames = field(default_factory=lambda: event_names(()))

    def audit_dir(self, result_id: str) -> str:
        return f"audits/{safe_name(result_id)}"

    def gate_files(self, result_id: str) -> list[tuple[int, str]]:
        """(round, path) of every gate record of a result, in round order."""
        found = []
        for path in self.snap.listing(self.audit_dir(result_id)):
            match = _GATE_FILE.search(path)
            if match and path.count("/") == 2:
                found.append((int(match.group(1)), path))
        return sorted(found)

    def names_record(self, named: object, record: ResultRecord) -> bool:
        """Whether an audit record's `result` field, `named`, names `record`: its id, or one it
        had before a revision renumbered or relabelled it (its audits folder moved along, the
        files in it did not)."""
        return named in self.names.former(record.id)

    def gate(self, record: ResultRecord) -> dict[str, Any] | None:
        return self.snap.json(record.evidence.gate)

    def at(self, record: ResultRecord, rule: Check, message: str) -> Finding:
        """A finding about the record itself, pointing at its entry in results.json."""
        line = self.snap.line_of("results.json", f'"id": "{record.id}"')
        return Finding("results.json", rule, message, line=line, result=record.id)

    def about(
        self, record: ResultRecord, path: str, rule: Check, message: str, line: int | None = None
    ) -> Finding:
        return Finding(path, rule, message, line=line, result=record.id)

    def source_files(self) -> dict[str, str]:
        prefix = "source/"
        return {
            p.removeprefix(prefix): self.snap.text(p) or ""
            for p in self.snap.listing("source")
            if p.startswith(prefix)
        }


def build_context(snap: Snapshot) -> Context:
    records = {r.id: r for r in snap.records}
    inventory = snap.json("inventory.json") or {}
    keys = frozenset(
        str(entry.get("key"))
        for entry in inventory.get("bibliography", [])
        if isinstance(entry, dict) and entry.get("key")
    )
    lean = snap.config.get("lean", {})
    beats = lean.get("max_heartbeats", DEFAULT_HEARTBEATS) if isinstance(lean, dict) else 0
    ctx = Context(
        snap=snap,
        records=records,
        bibliography=keys,
        header=header(max_heartbeats=int(beats)),
        names=event_names(snap.events or ()),
    )
    ctx.gated.update(_gated_texts(ctx))
    return ctx


def _gated_texts(ctx: Context) -> dict[str, str]:
    """Every declaration a gate passed: definitions, step skeletons and statements, by name.

    The statement is taken from the gate record (what the reviewer saw), the rest from the
    draft it reviewed. Results whose last gate did not pass contribute nothing.
    """
    texts: dict[str, str] = {}
    for record in ctx.records.values():
        draft = draft_of(record.work)
        gate = ctx.gate(record)
        if draft is None or gate is None or gate.get("decision") != "PASS":
            continue
        statement = gate.get("statement") if isinstance(gate.get("statement"), str) else None
        pieces = [*draft.definitions, *(o.lean for o in draft.obligations if o.id != "main")]
        pieces.append(statement or draft.statement)
        for text in pieces:
            parsed = parse_declaration(text)
            if parsed is not None and parsed.name:
                texts.setdefault(parsed.name, text.strip())
    return texts

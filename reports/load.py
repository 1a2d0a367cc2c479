"""Read a check workspace (docs/design.md §3) into one typed `ReportData`.

Everything a report shows comes from the records on disk: `results.json` (required),
`inventory.json`, `blueprint.json`, `events.jsonl`, `paperlint.toml` and the Lean files the
evidence names. Optional files may be missing; each absence becomes a note the report prints,
so a reader knows what the report could not say. After loading, rendering is pure.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperlint.errors import InputError
from paperlint.preflight.model import Inventory, Result
from paperlint.records import EventLog, read_record
from paperlint.records.checked import how_checked
from paperlint.records.drift import template_drift_notes
from paperlint.records.history import names_then, with_names_now
from paperlint.records.migrate import read_results
from paperlint.records.results import ResultRecord, Results, Verdict
from paperlint.records.run import read_run
from paperlint.records.workspace import not_a_workspace
from paperlint.reports.describe import shown_paths, split_replay_misses
from paperlint.reports.lean_text import declared_names, find_declaration, first_declaration
from paperlint.reports.since import load_since
from paperlint.reports.texmath import paper_title

if TYPE_CHECKING:
    from paperlint.records.learning import OfferedLemma

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ReportedCall:
    """One `model_call` event: the unit costs are summed from."""

    role: str
    model: str
    result: str | None
    tokens_in: int
    tokens_out: int
    cost_usd: float | None  # None = unknown (never read as 0)
    duration_s: float
    replay: bool


@dataclass(frozen=True)
class ResultView:
    """One result as the report shows it: the record joined with the paper's text."""

    record: ResultRecord
    source: Result | None
    lean_name: str | None
    lean_file: str | None
    lean_statement: str | None
    statement_uses: list[str]
    proof_uses: list[str]
    counterexample: str | None = None  # the claim the issue's counterexample file proves
    # the blueprint's external inputs (citations: key, locator, where, bib_text), when present
    planned_inputs: tuple[dict[str, str], ...] = ()
    faithfulness: tuple[str, ...] = ()  # lines from audits/<id>/faithfulness.json (#15)
    library: tuple[str, ...] = ()  # promoted library lemmas the accepted file uses (#19)
    strategy: str | None = None  # the strategy chosen for it at the check's start (#19)
    # a condition discharged by its predecessor's theorem in Lean (#14): what, and the Lean
    reconnection: tuple[str, ...] = ()
    reconnected_lean: str | None = None
    proving: tuple[str, ...] = ()  # how each obligation was closed, or why not (#13)
    # How a verified verdict's statement was compared with the gated one (#25): "checker",
    # "elaboration" or "text"; None when the result is not verified.
    checked: str | None = None
    # Why this verdict is about an earlier version of the paper (StaleMarks); None: current.
    stale: str | None = None

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def number(self) -> str | None:
        return self.record.number or (self.source.number if self.source else None)

    @property
    def kind(self) -> str:
        return self.record.kind

    @property
    def verdict(self) -> Verdict | None:
        return self.record.verdict

    @property
    def heading(self) -> str:
        title = self.source.title if self.source else self.kind.capitalize()
        return f"{title} {self.number}" if self.number else f"{title} ({self.id})"

    @property
    def location(self) -> tuple[str, int] | None:
        if self.source is None:
            return None
        return self.source.span.file, self.source.span.start_line


@dataclass(frozen=True)
class StaleMarks:
    """The paper changed since the check (#28): what to say, the command to run, and why each
    result it makes stale no longer holds. Made by the caller (`paperlint.revise.staleness`):
    a report reads records only."""

    message: str
    hint: str
    results: Mapping[str, str] = field(default_factory=dict)

    def banner(self) -> str:
        return f"STALE: {self.message}. Next: {self.hint}."


@dataclass(frozen=True)
class ReportData:
    workspace: Path
    results: Results
    inventory: Inventory | None
    views: list[ResultView]
    calls: list[ReportedCall]
    wall_s: float | None
    versions: dict[str, str]
    replay_parts: list[str]
    has_blueprint: bool
    notes: list[str] = field(default_factory=list)
    since: dict[str, Any] | None = None  # after `paperlint revise`: changes since the last version
    title: str | None = None  # the paper's `\\title{…}`, when its root file has one
    paper_path: str | None = None  # the PAPER the check was given (the run snapshot's `paper`)
    convergence: list[str] = field(default_factory=list)  # what the final review did (#19)
    # what a reader of the paper does not need (a replay's missing answers), kept collapsed
    technical: list[str] = field(default_factory=list)
    stale: StaleMarks | None = None  # the paper changed since the check
    # calls charged to the budget (`spend.json`): each request is charged before it is made,
    # so one that was never answered (a replay with no recorded answer) is charged uncounted
    charged_calls: int | None = None

    @property
    def is_replay(self) -> bool:
        return bool(self.replay_parts)

    def view(self, result_id: str) -> ResultView | None:
        return next((v for v in self.views if v.id == result_id), None)

    def bibliography(self) -> dict[str, str]:
        if self.inventory is None:
            return {}
        return {entry.key: entry.text for entry in self.inventory.bibliography}


def load_workspace(
    workspace: Path,
    *,
    templates: Mapping[str, str] | None = None,
    stale: StaleMarks | None = None,
) -> ReportData:
    """Read every record of `workspace`; raise `InputError` if it is not a check workspace.

    `templates`: each task's prompt template hash today (`agents.prompts.template_hashes`), to
    note answers produced with other prompts; None: no such note (reports render no prompt)."""
    results_path = workspace / "results.json"
    if not workspace.is_dir() or not results_path.is_file():
        raise not_a_workspace(workspace)
    notes: list[str] = []
    results = read_results(results_path)
    inventory = _load_inventory(workspace, notes)
    blueprint = _load_blueprint(workspace, notes)
    written = _load_events(workspace, notes)  # each naming results by the ids they had then
    events = with_names_now(written)
    notes += template_drift_notes(events, templates or {})
    views = _build_views(workspace, results, inventory, blueprint, notes)
    views = [replace(v, proving=prover_lines(events, v.id)) for v in views]
    if stale is not None:
        views = [replace(v, stale=stale.results.get(v.id)) for v in views]
    convergence, technical = _plain_lines(_convergence(workspace, written, notes), workspace)
    return ReportData(
        workspace=workspace,
        results=results,
        inventory=inventory,
        views=views,
        calls=[_model_call(e) for e in events if e.get("type") == "model_call"],
        wall_s=wall_time(events),
        versions=_load_versions(workspace, events, notes),
        replay_parts=_replay_parts(results, events),
        has_blueprint=blueprint is not None,
        notes=notes,
        since=load_since(workspace),
        title=_paper_title(workspace, inventory),
        paper_path=_paper_path(workspace),
        convergence=convergence,
        technical=technical,
        stale=stale,
        charged_calls=_charged_calls(workspace),
    )


def _charged_calls(workspace: Path) -> int | None:
    from paperlint.records.spend import SPEND_FILE, read_floor

    path = workspace / SPEND_FILE
    return read_floor(path).calls if path.is_file() else None


def _plain_lines(lines: list[str], workspace: Path) -> tuple[list[str], list[str]]:
    """The lines a reader sees, and the technical ones: a line that only says a replay had no
    recorded answer moves to the technical details, in plain words, with the miss's key."""
    shown: list[str] = []
    technical: list[str] = []
    for line in lines:
        text, misses = split_replay_misses(shown_paths(line, workspace))
        (technical if misses else shown).append(text)
        technical += misses
    return shown, technical


def _convergence(workspace: Path, events: list[dict[str, Any]], notes: list[str]) -> list[str]:
    """What the final convergence review flagged and re-gated, as report lines: each result
    by its id now (`events` as written: the review names results by the ids of its time)."""
    from paperlint.errors import InputError
    from paperlint.records.convergence import read_state

    try:
        state = read_state(workspace)
    except InputError as exc:
        notes.append(f"the convergence review's record is unreadable: {exc}")
        return []
    if state is None:
        return []
    if state.status == "asking":
        return ["The final convergence review was interrupted; `paperlint resume` finishes it."]
    if state.status == "pending":
        return [
            f"The final convergence review is pending ({state.reason}); the verdicts are not "
            "final until `paperlint resume` runs it."
        ]
    if state.status != "done":
        return [f"The final convergence review did not run: {state.reason}"]
    combined = state.combined
    if combined is None or not combined.flagged:
        models = " and ".join(r.model for r in state.reviews)
        return [
            f"The final convergence review ({models}) flagged nothing. This is the reviewers' "
            "claim, not evidence: no file re-derives it."
        ]
    shown = _named_now(events, [*(flag.result for flag in combined.flags), *combined.regate])
    lines = [f"{shown[f.result]} flagged ({f.concern}): {f.reason}" for f in combined.flags]
    regated = ", ".join(shown[rid] for rid in combined.regate)
    lines.append(f"Gated again: {regated}; nothing else changed.")
    return lines


def _named_now(events: list[dict[str, Any]], ids: list[str]) -> dict[str, str]:
    """The ids the convergence review wrote, as the results are named now: a revision since
    may have renumbered an unlabelled one (`lemma:2.3 (reviewed as lemma:2.2)`) or removed it."""
    reviewed = [i for i, e in enumerate(events) if e.get("type") == "convergence_reviewed"]
    if not reviewed:
        return {rid: rid for rid in ids}
    now = names_then(events, reviewed[-1], ids)
    return {rid: _shown(rid, name) for rid, name in zip(ids, now, strict=True)}


def _shown(then: str, now: str | None) -> str:
    if now is None:
        return f"{then} (no longer in the paper)"
    return now if now == then else f"{now} (reviewed as {then})"


def _load_inventory(workspace: Path, notes: list[str]) -> Inventory | None:
    path = workspace / "inventory.json"
    if not path.is_file():
        notes.append("inventory.json is missing: the paper's statements and places are not shown.")
        return None
    return read_record(path, Inventory)


def _load_blueprint(workspace: Path, notes: list[str]) -> dict[str, dict[str, Any]] | None:
    """Blueprint entries by result id. Read loosely: only the fields the report shows."""
    path = workspace / "blueprint.json"
    if not path.is_file():
        return None
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        notes.append(f"blueprint.json could not be read ({exc}); planned names are not shown.")
        return None
    entries = raw.get("entries") or raw.get("results") or []
    return {e["id"]: e for e in entries if isinstance(e, dict) and "id" in e}


def _paper_path(workspace: Path) -> str | None:
    try:
        run = read_run(workspace / "paperlint.toml")
    except InputError:
        return None  # _load_versions says so in the notes
    return run.paper or None


def _paper_title(workspace: Path, inventory: Inventory | None) -> str | None:
    """The `\\title{…}` of the paper's root file in the workspace's source snapshot."""
    if inventory is None or inventory.source_kind != "tex":
        return None
    path = _inside(workspace / "source", inventory.root)
    if path is None or not path.is_file():
        return None
    return paper_title(path.read_text(encoding="utf-8", errors="replace"), inventory.macros)


def _load_events(workspace: Path, notes: list[str]) -> list[dict[str, Any]]:
    path = workspace / "events.jsonl"
    if not path.is_file():
        notes.append("events.jsonl is missing: wall time and costs are unknown.")
        return []
    return list(EventLog(path).read())


def _load_versions(
    workspace: Path, events: list[dict[str, Any]], notes: list[str]
) -> dict[str, str]:
    path = workspace / "paperlint.toml"
    versions: dict[str, str] = {}
    if path.is_file():
        try:
            config = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            notes.append(f"paperlint.toml could not be read ({exc}); versions are not shown.")
            config = {}
        _flatten(config.get("versions", {}), "", versions)
    else:
        notes.append("paperlint.toml is missing: the versions of the run are not recorded.")
    started = next((e for e in events if e.get("type") == "run_started"), None)
    if "paperlint" not in versions and started and started.get("paperlint_version"):
        versions["paperlint"] = str(started["paperlint_version"])
    return versions


def _flatten(table: dict[str, Any], prefix: str, into: dict[str, str]) -> None:
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            _flatten(value, f"{name}.", into)
        else:
            into[name] = str(value)


def _replay_parts(results: Results, events: list[dict[str, Any]]) -> list[str]:
    """What was replayed, from the record and from every run in the event log."""
    parts = set(results.replay_parts)
    if results.replay and not parts:
        parts.add("model")
    for event in events:
        if event.get("type") == "run_started":
            parts.update(str(p) for p in event.get("replay") or [])
        elif event.get("type") == "model_call" and event.get("replay"):
            parts.add("model")
        elif event.get("type") == "lean_check" and event.get("replay"):
            parts.add("lean")
    return sorted(parts)


def _model_call(event: dict[str, Any]) -> ReportedCall:
    cost = event.get("cost_usd")
    return ReportedCall(
        role=str(event.get("role") or "unknown"),
        model=str(event.get("model") or "unknown"),
        result=event.get("result"),
        tokens_in=int(event.get("tokens_in") or 0),
        tokens_out=int(event.get("tokens_out") or 0),
        cost_usd=float(cost) if cost is not None else None,
        duration_s=float(event.get("duration_s") or 0.0),
        replay=bool(event.get("replay")),
    )


def _timestamp(event: dict[str, Any]) -> dt.datetime | None:
    try:
        return dt.datetime.fromisoformat(str(event["ts"]).replace("Z", "+00:00"))
    except (KeyError, ValueError):
        return None


def wall_time(events: list[dict[str, Any]]) -> float | None:
    """Seconds the runs took: each run from its `run_started` to its last event, summed.

    A resumed check has several runs; the idle time between them is not part of the cost.
    """
    total, first, last, seen = 0.0, None, None, False
    for event in events:
        stamp = _timestamp(event)
        if stamp is None:
            continue
        if event.get("type") == "run_started" and first is not None and last is not None:
            total += (last - first).total_seconds()
            first = None
        first = first or stamp
        last = stamp
        seen = True
    if first is not None and last is not None:
        total += (last - first).total_seconds()
    return total if seen else None


_CLOSED_BY = {
    "automation": "closed by automation",
    "search": "closed by a search hit the prover then used",
    "library": "closed by a `library` suggestion",
    "model": "closed by the prover",
}


def prover_lines(events: list[dict[str, Any]], result_id: str) -> tuple[str, ...]:
    """One line per obligation from its last `prover_finished` event: how it was closed
    (automation, search, library) or why the prover stopped, with its model turns."""
    last: dict[str, dict[str, Any]] = {}
    for event in events:
        if event.get("type") == "prover_finished" and event.get("result") == result_id:
            last[str(event.get("obligation"))] = event
    lines = []
    for obligation, event in last.items():
        turns, tools = int(event.get("model_turns") or 0), int(event.get("tool_calls") or 0)
        cost = f"{turns} model turn{'s' * (turns != 1)}, {tools} tool call{'s' * (tools != 1)}"
        how = _CLOSED_BY.get(str(event.get("closed_by")))
        if how is None:
            how = f"not proved ({event.get('status')}): {event.get('detail', '')}"
        else:
            how = f"{how} ({event.get('detail', '')})"
        lines.append(f"{obligation}: {how}; {cost}")
    return tuple(lines)


def _build_views(
    workspace: Path,
    results: Results,
    inventory: Inventory | None,
    blueprint: dict[str, dict[str, Any]] | None,
    notes: list[str],
) -> list[ResultView]:
    """Views in document order: the inventory's order, then records the inventory lacks."""
    by_id = {r.id: r for r in results.results}
    order = [r.id for r in inventory.results if r.id in by_id] if inventory else []
    order += [r.id for r in results.results if r.id not in set(order)]
    offered = _offered(workspace, notes)
    strategies = _strategies(workspace, notes)
    views = []
    for result_id in order:
        source = inventory.result(result_id) if inventory else None
        planned = (blueprint or {}).get(result_id, {})
        view = _view(workspace, by_id[result_id], source, planned, notes)
        library = _library_lines(workspace, view, offered)
        checked = how_checked(workspace, view.record)
        views.append(
            replace(view, library=library, strategy=strategies.get(result_id), checked=checked)
        )
    return views


def _strategies(workspace: Path, notes: list[str]) -> dict[str, str]:
    from paperlint.errors import InputError
    from paperlint.records.learning import read_strategies

    try:
        plan = read_strategies(workspace)
    except InputError as exc:
        notes.append(f"the strategy choices are unreadable: {exc}")
        return {}
    return {rid: f"{c.strategy} ({c.reason})" for rid, c in plan.choices.items()}


def _offered(workspace: Path, notes: list[str]) -> dict[str, OfferedLemma]:
    from paperlint.errors import InputError
    from paperlint.records.learning import read_offer

    try:
        return {lemma.name: lemma for lemma in read_offer(workspace).lemmas}
    except InputError as exc:
        notes.append(f"the offered-library copy is unreadable: {exc}")
        return {}


def _library_lines(
    workspace: Path, view: ResultView, offered: dict[str, OfferedLemma]
) -> tuple[str, ...]:
    """ "Uses PaperlintLib.foo, proved in the library, promoted on …" for each offered lemma the
    result's accepted Lean file declares (and so Lean checked again inside that file)."""
    rel = view.record.evidence.lean_file
    path = _inside(workspace, rel) if offered and rel else None
    if path is None or not path.is_file():
        return ()
    names = declared_names(path.read_text(encoding="utf-8"))
    lines = []
    for name in sorted(names & set(offered)):
        lemma = offered[name]
        origin = lemma.provenance
        lines.append(
            f"uses {name}, proved in the library, promoted on {lemma.promoted_at[:10]} "
            f"(from result {origin.result} of the paper sha256 {origin.paper_sha256[:12]}…); "
            "Lean checked it again inside this file"
        )
    return tuple(lines)


def _view(
    workspace: Path,
    record: ResultRecord,
    source: Result | None,
    planned: dict[str, Any],
    notes: list[str],
) -> ResultView:
    lean_name = record.evidence.lean_name or planned.get("lean_name")
    lean_file = record.evidence.lean_file or planned.get("lean_file")
    statement_uses = planned.get("statement_uses", source.uses if source else [])
    proof_uses = planned.get("proof_uses", source.proof_uses if source else [])
    return ResultView(
        record=record,
        source=source,
        lean_name=lean_name,
        lean_file=lean_file,
        lean_statement=_lean_statement(workspace, record, notes),
        statement_uses=[str(u) for u in statement_uses],
        proof_uses=[str(u) for u in proof_uses],
        counterexample=_counterexample(workspace, record, notes),
        planned_inputs=tuple(
            {k: str(v) for k, v in item.items() if v is not None}
            for item in planned.get("external_inputs") or []
            if isinstance(item, dict)
        ),
        faithfulness=_faithfulness(workspace, record),
        **_reconnection(workspace, record),
    )


def _reconnection(workspace: Path, record: ResultRecord) -> dict[str, Any]:
    """The accepted reconnection of a verified result, from its record file (issue #14)."""
    from paperlint.records.layout import safe_name
    from paperlint.records.slots import Reconnection

    if record.verdict not in (Verdict.VERIFIED_CONDITIONAL, Verdict.VERIFIED_UNCONDITIONAL):
        return {}
    folder = workspace / "audits" / safe_name(record.id)
    tried = []
    for path in folder.glob("reconnect-*.json"):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            data.pop("schema", None)
            tried.append(Reconnection.model_validate(data))
        except (OSError, ValueError):
            continue  # a check record (`reconnect-<n>-check.json`), or unreadable
    accepted = sorted((r for r in tried if r.accepted), key=lambda r: _attempt(r.record))
    found = accepted[-1] if accepted else None
    if found is None or found.file is None:
        return {}
    lines = tuple(
        f"{d.condition} (a clause of {d.result}) discharged by its theorem {d.by}"
        for d in found.discharges
    )
    if found.checker is not None:  # issue #25
        lines += (f"checked by the verifier and the trusted checker: {found.checker}",)
    else:
        lines += (f"checked by the verifier and a cold build: {found.final_check}",)
    try:
        text = (workspace / found.file).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {"reconnection": lines}
    start = text.rfind(f"theorem {found.name}")  # the module's last declaration
    lean = text[start:].rstrip() if start >= 0 else None
    return {"reconnection": lines, "reconnected_lean": lean}


def _attempt(record_path: str) -> int:
    """n of `audits/<id>/reconnect-<n>.json`."""
    stem = record_path.rsplit("/", 1)[-1].removesuffix(".json")
    tail = stem.rsplit("-", 1)[-1]
    return int(tail) if tail.isdigit() else 0


def _faithfulness(workspace: Path, record: ResultRecord) -> tuple[str, ...]:
    from paperlint.records.faithfulness import FILE, read_evidence
    from paperlint.records.faithfulness_brief import report_lines
    from paperlint.records.layout import safe_name

    folder = workspace / "audits" / safe_name(record.id)
    evidence = read_evidence(folder / FILE)
    lines = report_lines(evidence) if evidence is not None else []
    return tuple([*lines, *_gate_rulings(folder)])


def _gate_rulings(folder: Path) -> list[str]:
    """Each gate round's answer to the faithfulness evidence it was shown (#15), in order."""
    from paperlint.records.faithfulness import read_evidence, round_file
    from paperlint.records.faithfulness_brief import probe_lines, ruling_lines
    from paperlint.records.outputs import GateRuling

    lines: list[str] = []
    rounds = sorted(folder.glob("gate-*.json"), key=lambda p: int(p.stem.split("-")[1]))
    for path in rounds:
        try:
            gate = json.loads(path.read_text(encoding="utf-8"))
            faithful = gate.get("faithfulness") or {}
            review = gate.get("review") or {}
            ruling = GateRuling.model_validate(review["ruling"]) if review.get("ruling") else None
            why = str((faithful.get("decision") or {}).get("why", ""))
        except (OSError, ValueError, AttributeError, TypeError):
            continue  # an unreadable record shows nothing, never a pass (validate flags it)
        if not faithful:
            continue
        number = int(gate.get("round", 0))
        lines += ruling_lines(number, str(gate.get("decision")), ruling, why)
        shown = read_evidence(folder / round_file(number))
        if path != rounds[-1] and shown is not None and shown.probe and shown.probe.refuted:
            lines.append(f"Round {number} probe: {probe_lines(shown.probe)[0]}")
    return lines


def _lean_statement(workspace: Path, record: ResultRecord, notes: list[str]) -> str | None:
    """The statement as formalised: only from the file the evidence names, never planned."""
    lean_file, lean_name = record.evidence.lean_file, record.evidence.lean_name
    if not lean_file or not lean_name:
        return None
    path = _inside(workspace, lean_file)
    if path is None or not path.is_file():
        notes.append(f"{record.id}: the Lean file {lean_file} named in the evidence is missing.")
        return None
    statement = find_declaration(
        path.read_text(encoding="utf-8"), lean_name, with_body=record.kind == "definition"
    )
    if statement is None:
        notes.append(f"{record.id}: {lean_file} has no declaration named {lean_name}.")
    return statement


def _counterexample(workspace: Path, record: ResultRecord, notes: list[str]) -> str | None:
    issue = record.issue
    if issue is None or not issue.evidence.counterexample:
        return None
    path = _inside(workspace, issue.evidence.counterexample)
    if path is None or not path.is_file():
        notes.append(
            f"{record.id}: the counterexample file {issue.evidence.counterexample} is missing."
        )
        return None
    return first_declaration(path.read_text(encoding="utf-8"))


def _inside(workspace: Path, relative: str) -> Path | None:
    """Resolve a record's path, refusing one that leaves the workspace (records are data)."""
    path = (workspace / relative).resolve()
    return path if path.is_relative_to(workspace.resolve()) else None

"""The per-user run record: one JSON line per verdict-bearing result of every check.

An entry says what was tried on a result and what came of it: the paper's hash, the result's
kind, features of its Lean statement (size, constants used, Mathlib area), the strategy the
prover used, the outcome, and the calls and cost it took. The strategy chooser reads it;
`paperlint runs` summarises it.

`entries_of_workspace` is pure over a workspace's records, events and Lean files (passed in as
data); `append_entries` and `read_entries` are the only I/O. Appends take an exclusive `flock`
on the record, so two checks finishing at once never interleave their lines, and reading skips
(and counts) a torn or foreign line instead of failing: the record is a log, not a contract.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from paperlint.lean.declarations import THEOREM_KEYWORDS
from paperlint.lean.lexer import Kind, code_tokens
from paperlint.records.history import with_names_now

RUN_SCHEMA: Final = "paperlint.run/1"
RECORD_NAME: Final = "runs.jsonl"
BASELINE: Final = "baseline"  # the engine's fixed strategy, until the chooser is on
MAX_CONSTANTS: Final = 40

Outcome = Literal["verified", "issue", "unfinished"]

# Top-level namespaces of Mathlib (and core) by the area of mathematics they belong to. The
# first match over a statement's qualified constants decides the area; unknown is `None`.
AREAS: Final[Mapping[str, str]] = {
    "ℝ": "analysis",
    "ℂ": "analysis",
    "Real": "analysis",
    "Complex": "analysis",
    "Filter": "analysis",
    "Metric": "analysis",
    "deriv": "analysis",
    "HasDerivAt": "analysis",
    "Continuous": "analysis",
    "MeasureTheory": "measure",
    "ProbabilityTheory": "probability",
    "Finset": "combinatorics",
    "Fintype": "combinatorics",
    "Nat": "number_theory",
    "Int": "number_theory",
    "ZMod": "number_theory",
    "Polynomial": "algebra",
    "Matrix": "linear_algebra",
    "LinearMap": "linear_algebra",
    "Set": "sets",
}


class Features(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    statement_chars: int = 0  # of the gated Lean statement (0 when none was gated)
    constants: list[str] = Field(default_factory=list)
    area: str | None = None


class RunEntry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    schema_: str = Field(default=RUN_SCHEMA, alias="schema")
    at: str  # the check's start time (ISO 8601), from its run_started event
    paper_sha256: str
    result: str
    result_kind: str
    features: Features
    strategy: str = BASELINE
    outcome: Outcome
    detail: str | None = None  # the verdict or the unfinished reason
    obligations: int = 0
    prover_calls: int = 0
    model_calls: int = 0
    cost_usd: float | None = None  # None when any call had no price
    replay: bool = False

    def to_line(self) -> str:
        return json.dumps(self.model_dump(mode="json", by_alias=True), sort_keys=True)


def paper_hash(inventory: Mapping[str, Any]) -> str:
    """A paper's identity: the hashes of its source files, independent of where it lay."""
    files = sorted((f.get("path", ""), f.get("sha256", "")) for f in inventory.get("files", []))
    return hashlib.sha256(json.dumps(files).encode()).hexdigest()


def statement_features(lean_text: str | None, name: str | None) -> Features:
    """Size, constants and area of the statement of `name` in `lean_text` (lexer tokens)."""
    if not lean_text or not name:
        return Features()
    statement = _statement_of(lean_text, name)
    if statement is None:
        return Features()
    idents = _constants(statement, name)
    constants = sorted(set(idents))[:MAX_CONSTANTS]
    return Features(statement_chars=len(statement), constants=constants, area=_area(idents))


OPEN: Final = frozenset({"(", "{", "[", "⦃", "{{", "⟨"})
BINDERS: Final = frozenset({"∀", "∃", "∃!", "fun", "λ", "Π", "Σ", "∑", "∏", "⋃", "⋂", "⨆", "⨅"})
KEYWORDS: Final = frozenset({"theorem", "lemma", "by", "fun", "Type", "Prop", "Sort", "in"})


def _constants(statement: str, name: str) -> list[str]:
    """The identifiers a statement uses that it does not bind itself (in order, repeated)."""
    tokens = code_tokens(statement)
    bound: set[str] = set()
    for i, tok in enumerate(tokens):
        if tok.text in OPEN or tok.text in BINDERS:
            names, j = [], i + 1
            while (
                j < len(tokens) and tokens[j].kind is Kind.IDENT and tokens[j].text not in KEYWORDS
            ):
                names.append(tokens[j].text)
                j += 1
            closes = tokens[j].text if j < len(tokens) else ""
            if closes == ":" or (tok.text in BINDERS and closes in (",", "∈")):
                bound.update(names)
    return [
        t.text
        for t in tokens
        if t.kind is Kind.IDENT
        and t.text not in bound
        and t.text not in KEYWORDS
        and t.text != name
        and not t.text.startswith("_")
    ]


def _statement_of(text: str, name: str) -> str | None:
    """The text from `theorem NAME` to its `:=`, found on the lexer's tokens."""
    tokens = code_tokens(text)
    for i, tok in enumerate(tokens[:-1]):
        if tok.text in THEOREM_KEYWORDS and tokens[i + 1].text == name:
            for end in tokens[i + 2 :]:
                if end.text == ":=":
                    return text[tok.offset : end.offset].strip()
            return None
    return None


def _area(idents: Sequence[str]) -> str | None:
    votes: Counter[str] = Counter()
    for ident in idents:
        head = ident.split(".", 1)[0]
        if head in AREAS:
            votes[AREAS[head]] += 1
    if not votes:
        return None
    return sorted(votes.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]


def entries_of_workspace(
    *,
    inventory: Mapping[str, Any],
    results: Mapping[str, Any],
    events: Iterable[Mapping[str, Any]],
    lean_files: Mapping[str, str],
) -> list[RunEntry]:
    """One entry per verdict-bearing result that reached a verdict or gave up (pure)."""
    events = list(events)
    started = next((e for e in events if e.get("type") == "run_started"), {})
    at = str(started.get("ts", ""))
    replay = bool(results.get("replay", False))
    paper = paper_hash(inventory)
    calls: dict[str, Counter[str]] = defaultdict(Counter)
    costs: dict[str, list[float | None]] = defaultdict(list)
    obligations: dict[str, set[str]] = defaultdict(set)
    strategies: dict[str, str] = {}
    for ev in events:
        rid = ev.get("result")
        if ev.get("type") == "model_call" and isinstance(rid, str):
            calls[rid][str(ev.get("role", ""))] += 1
            cost = ev.get("cost_usd")
            costs[rid].append(float(cost) if isinstance(cost, int | float) else None)
            if ev.get("role") == "prover" and ev.get("obligation"):
                obligations[rid].add(str(ev["obligation"]))
        elif ev.get("type") == "strategy_chosen" and isinstance(rid, str):
            strategies[rid] = str(ev.get("strategy", BASELINE))
    entries = []
    for rec in results.get("results", []):
        if not rec.get("verdict_bearing", True):
            continue
        outcome = _outcome(rec)
        if outcome is None:
            continue
        evidence = rec.get("evidence") or {}
        rid = rec["id"]
        spent = costs.get(rid, [])
        entries.append(
            RunEntry(
                at=at,
                paper_sha256=paper,
                result=rid,
                result_kind=str(rec.get("kind", "other")),
                features=statement_features(
                    lean_files.get(evidence.get("lean_file") or ""), evidence.get("lean_name")
                ),
                strategy=strategies.get(rid, BASELINE),
                outcome=outcome[0],
                detail=outcome[1],
                obligations=len(obligations.get(rid, ())),
                prover_calls=calls[rid]["prover"],
                model_calls=sum(calls[rid].values()),
                cost_usd=None if None in spent else round(sum(c or 0.0 for c in spent), 6),
                replay=replay,
            )
        )
    return entries


def _outcome(rec: Mapping[str, Any]) -> tuple[Outcome, str | None] | None:
    verdict = rec.get("verdict")
    if verdict in ("verified_unconditional", "verified_conditional"):
        return "verified", verdict
    if verdict == "issue":
        return "issue", verdict
    unfinished = rec.get("unfinished")
    if isinstance(unfinished, Mapping):
        return "unfinished", str(unfinished.get("reason"))
    return None


def read_workspace(folder: Path) -> list[RunEntry]:
    """The entries of a finished check's workspace (reads its records, events, Lean files)."""
    from paperlint.errors import InputError

    try:
        inventory = json.loads((folder / "inventory.json").read_text(encoding="utf-8"))
        results = json.loads((folder / "results.json").read_text(encoding="utf-8"))
        lines = (folder / "events.jsonl").read_text(encoding="utf-8").splitlines()
    except (OSError, ValueError) as exc:
        raise InputError(
            f"cannot read the check's records: {exc}",
            path=folder,
            hint="give the folder `paperlint check` wrote, e.g. paper.paperlint/",
        ) from exc
    events = []
    for line in lines:
        try:
            events.append(json.loads(line))
        except ValueError:
            continue  # a torn last line after a crash: the complete ones still count
    lean_files: dict[str, str] = {}
    for rec in results.get("results", []):
        rel = (rec.get("evidence") or {}).get("lean_file")
        if isinstance(rel, str) and _inside(folder, rel):
            try:
                lean_files[rel] = (folder / rel).read_text(encoding="utf-8")
            except OSError:
                continue
    return entries_of_workspace(
        inventory=inventory, results=results, events=with_names_now(events), lean_files=lean_files
    )


def _inside(folder: Path, rel: str) -> bool:
    target = (folder / rel).resolve()
    return target.is_relative_to(folder.resolve()) and target.is_file()


def record_path(data_dir: Path) -> Path:
    return data_dir / RECORD_NAME


def append_entries(data_dir: Path, entries: Sequence[RunEntry]) -> Path:
    """Append `entries` to the run record under an exclusive lock; returns the record's path."""
    path = record_path(data_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = "".join(e.to_line() + "\n" for e in entries).encode("utf-8")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.write(fd, payload)
        os.fsync(fd)
    finally:
        os.close(fd)  # closing releases the lock
    return path


class RecordRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    entries: list[RunEntry]
    skipped: int = 0  # lines that were torn, foreign or of another schema


def read_entries(data_dir: Path, *, checks: Collection[str] | None = None) -> RecordRead:
    """The record's entries; with `checks`, only those of the checks that started at one of
    these times (`RunEntry.at`): other lines are not parsed, and `skipped` counts none of
    them. The record grows with every check a user runs."""
    path = record_path(data_dir)
    if not path.is_file():
        return RecordRead(entries=[])
    entries, skipped = [], 0
    with path.open(encoding="utf-8", errors="replace") as fh:
        for line in fh:
            if checks is not None and not any(at in line for at in checks):
                continue  # an entry of such a check spells its `at` on its line
            try:
                raw = json.loads(line)
                if raw.get("schema") != RUN_SCHEMA:
                    raise ValueError("another schema")
                entries.append(RunEntry.model_validate(raw))
            except (ValueError, AttributeError, ValidationError):
                skipped += 1
    return RecordRead(entries=entries, skipped=skipped)


def _entry_key(e: RunEntry) -> tuple[str, str, str]:
    return (e.at, e.paper_sha256, e.result)


def latest(entries: Sequence[RunEntry]) -> list[RunEntry]:
    """One entry per result of each check: its last (a resumed check appends its new outcome)."""
    last: dict[tuple[str, str, str], RunEntry] = {}
    for e in entries:
        last.pop(_entry_key(e), None)
        last[_entry_key(e)] = e
    return list(last.values())


def is_real_trial(entry: RunEntry) -> bool:
    """Whether an outcome teaches something about a strategy: a live check's, of a result that
    reached a model. A replay re-serves recorded answers; a check without a model, or a result
    stopped before its first call, tried nothing (#28)."""
    return not entry.replay and entry.model_calls > 0


def record_check(data_dir: Path, folder: Path) -> int:
    """Append a finished (or stopped) check's real trials (`is_real_trial`) not yet in the
    record; how many."""
    mine = [e for e in read_workspace(folder) if is_real_trial(e)]
    checks = {e.at for e in mine}
    known = {
        (*_entry_key(e), e.outcome, e.detail)
        for e in read_entries(data_dir, checks=checks).entries
        if e.at in checks
    }
    new = [e for e in mine if (*_entry_key(e), e.outcome, e.detail) not in known]
    if new:
        append_entries(data_dir, new)
    return len(new)


class StrategyRow(BaseModel):
    model_config = ConfigDict(frozen=True)

    group: str  # result kind or area
    strategy: str
    runs: int
    verified: int
    issues: int
    unfinished: int
    mean_model_calls: float
    cost_usd: float | None  # None when some run had no price


def summarise(
    entries: Sequence[RunEntry], *, by: Literal["kind", "area"] = "kind", live_only: bool = True
) -> list[StrategyRow]:
    """Per group and strategy: how many runs, with what outcome, at what cost (pure)."""
    groups: dict[tuple[str, str], list[RunEntry]] = defaultdict(list)
    for e in latest(entries):
        if live_only and not is_real_trial(e):
            continue
        group = e.result_kind if by == "kind" else (e.features.area or "unknown")
        groups[(group, e.strategy)].append(e)
    rows = []
    for (group, strategy), runs in sorted(groups.items()):
        outcomes = Counter(e.outcome for e in runs)
        costs = [e.cost_usd for e in runs]
        rows.append(
            StrategyRow(
                group=group,
                strategy=strategy,
                runs=len(runs),
                verified=outcomes["verified"],
                issues=outcomes["issue"],
                unfinished=outcomes["unfinished"],
                mean_model_calls=round(sum(e.model_calls for e in runs) / len(runs), 2),
                cost_usd=None if None in costs else round(sum(c or 0.0 for c in costs), 4),
            )
        )
    return rows

"""`paperlint revise`: check a new version of a paper by resetting only what changed (issue #8).

The effects live here; the decisions are the pure functions of `match`, `changes` and `apply`.
Order of writes: the snapshot first (complete, with its done-marker written last), then the new
kept source, inventory, blueprint and results, then the config, `revision.json` and the
`revision` event. `resume` then runs only the reset work.
"""

from __future__ import annotations

import datetime as _dt
import fnmatch
import hashlib
import re
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final

from paperlint.blueprint.build import build_blueprint
from paperlint.blueprint.model import Blueprint
from paperlint.errors import InputError
from paperlint.preflight.model import Inventory
from paperlint.records import WorkspaceLock, read_record, write_record
from paperlint.records.events import RevisionEvent
from paperlint.records.faithfulness import FILE as FAITHFUL_FILE
from paperlint.records.history import with_names_now
from paperlint.records.journal import Journal
from paperlint.records.layout import refuse_shared_folders, safe_name
from paperlint.records.results import Results
from paperlint.records.revisions import append_revision
from paperlint.records.workspace import Workspace, keep_sources, open_workspace, write_results
from paperlint.revise.apply import (
    carry_names,
    clause_sources,
    formalised_ids,
    issue_quotes,
    moved_paths,
    renamed_files,
    revised_results,
)
from paperlint.revise.changes import estimate, plan_resets, revision_plan
from paperlint.revise.match import match_results
from paperlint.revise.snapshot import refuse_if_interrupted, take_snapshot
from paperlint.spec import read_spec, write_spec
from paperlint.store import write_bytes_atomic

# What a reset leaves in `audits/<id>/`: the records of the stages it keeps.
KEPT_AUDITS: Final[dict[str, tuple[str, ...]]] = {
    "re-draft": (),
    "re-gate": ("plan.json", "draft-*", "second-draft-*"),
    # the gate's reference run stays with the gate: its lock is re-derived from it (#25); so
    # does the faithfulness record of each gate round (#15): `_clear_stale_evidence`
    "re-prove": (
        "plan.json",
        "draft-*",
        "second-draft-*",
        "gate-*",
        "reference-*",
        "faithfulness-*",
    ),
}


@dataclass(frozen=True)
class ReviseRequest:
    workdir: Path
    paper: Path
    root: str | None = None
    replay: Path | None = None  # the transcript the following `resume` replays


@dataclass(frozen=True)
class RevisionOutcome:
    plan: dict[str, Any]  # the dry-run answer (docs/design.md §10)
    snapshot: Path | None  # None for a dry run


def preview_revision(workdir: Path, paper: Path, *, root: str | None = None) -> RevisionOutcome:
    """What a revision would reset and why, with the cost estimate; writes nothing."""
    ws = open_workspace(workdir)
    refuse_if_interrupted(ws)
    prepared = _prepare(ws, paper, root)
    return RevisionOutcome(plan=prepared.plan, snapshot=None)


def revise(request: ReviseRequest) -> RevisionOutcome:
    """Snapshot the workspace, then carry its records over to the new version of the paper."""
    ws = open_workspace(request.workdir)
    with WorkspaceLock(ws.root):
        refuse_if_interrupted(ws)
        prepared = _prepare(ws, request.paper, request.root)
        stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M%S%fZ")
        snapshot = take_snapshot(ws, stamp)
        _replace_source(ws, _project_dir(request.paper), prepared.inventory)
        _move_audit_folders(ws, prepared.plan)
        rehashed = _repoint_gates(ws, prepared.plan)
        _clear_stale_evidence(ws, prepared.plan["reset"], prepared.blueprint)
        write_record(ws.inventory, prepared.inventory)
        write_record(ws.blueprint, prepared.blueprint)
        write_results(ws, with_hashes(prepared.results, rehashed))
        _rewrite_run_config(ws, request.paper, request.replay)
        entry = _revision_entry(stamp, ws, snapshot, request.paper, prepared.plan)
        append_revision(ws.root, entry)
        Journal(ws.events()).emit(RevisionEvent(**_event_fields(entry)))
    return RevisionOutcome(plan=prepared.plan, snapshot=snapshot)


@dataclass(frozen=True)
class _Prepared:
    inventory: Inventory
    blueprint: Blueprint
    results: Results
    plan: dict[str, Any]


def _prepare(ws: Workspace, paper: Path, root: str | None) -> _Prepared:
    from paperlint.preflight.inventory import build_inventory

    if not paper.exists():
        raise InputError("no such file or folder", path=paper, hint="give the new version's .tex")
    new_inventory = build_inventory(paper, root=root)
    refuse_shared_folders(new_inventory)
    old_inventory = read_record(ws.inventory, Inventory)
    old_blueprint = read_record(ws.blueprint, Blueprint)
    old_results = ws.load_results()
    match = match_results(old_inventory, new_inventory)
    sources = _read_sources(_project_dir(paper), new_inventory)
    renamed = renamed_files(old_inventory, new_inventory)
    # The old main file's quotes are looked for in the new main file, whatever its name.
    sources = {**sources, **{old: sources.get(new, "") for old, new in renamed.items()}}
    resets = plan_resets(
        old_inventory,
        new_inventory,
        old_blueprint,
        match,
        formalised=formalised_ids(old_results),
        quotes=issue_quotes(old_results),
        sources=sources,
        clauses=clause_sources(old_results),
    )
    blueprint = carry_names(build_blueprint(new_inventory), old_blueprint, match)
    results = revised_results(
        old_results, new_inventory, blueprint, match, resets, sources, renamed
    )
    results = results.model_copy(update={"paper": paper.name})
    cost = estimate(resets, with_names_now(list(ws.events().read())))
    return _Prepared(new_inventory, blueprint, results, revision_plan(match, resets, cost))


def _move_audit_folders(ws: Workspace, plan: dict[str, Any]) -> None:
    """Each carried result's audits folder follows its id (`apply.rehome` moves the paths in
    its record); a removed result's folder goes (the snapshot keeps it). Moves go through
    temporary names, so a chain lemma:1 -> lemma:2 -> lemma:3 never overwrites a folder."""
    staged = []
    for pair in plan["matched"]:
        source = ws.audit_dir(pair["old"])
        if pair["old"] != pair["new"] and source.is_dir():
            temporary = ws.audits / f".moving-{safe_name(pair['old'])}"
            source.rename(temporary)
            staged.append((temporary, ws.audit_dir(pair["new"])))
    for rid in plan["removed"]:
        shutil.rmtree(ws.audit_dir(rid), ignore_errors=True)
    for temporary, target in staged:
        shutil.rmtree(target, ignore_errors=True)
        temporary.rename(target)


def _repoint_gates(ws: Workspace, plan: dict[str, Any]) -> dict[str, str]:
    """In each moved audits folder, the gate records' paths to the gate's own reference run
    and faithfulness record (`"run"`, `"evidence"`: files of the same folder) moved with it,
    as `apply.rehome` moves the record's; sha256 of each file rewritten, by path. Only the
    gate records hold such paths (an allowlist: the checker's record is never rewritten)."""
    rehashed = {}
    for pair in plan["matched"]:
        if pair["old"] == pair["new"]:
            continue
        folder = ws.audit_dir(pair["new"])
        for path in sorted(folder.glob("gate-*.json")) if folder.is_dir() else []:
            data = path.read_bytes()
            text = moved_paths(data.decode("utf-8"), pair["old"], pair["new"]).encode("utf-8")
            if text != data:
                write_bytes_atomic(path, text)
                rehashed[ws.rel(path)] = hashlib.sha256(text).hexdigest()
    return rehashed


def with_hashes(results: Results, rehashed: Mapping[str, str]) -> Results:
    """`results` with the evidence hash of each file in `rehashed` replaced by its new one."""
    if not rehashed:
        return results
    records = []
    for record in results.results:
        hashes = record.evidence.hashes
        if rehashed.keys() & hashes.keys():
            hashes = {path: rehashed.get(path, digest) for path, digest in hashes.items()}
            evidence = record.evidence.model_copy(update={"hashes": hashes})
            record = record.model_copy(update={"evidence": evidence})
        records.append(record)
    return results.model_copy(update={"results": records})


def _clear_stale_evidence(ws: Workspace, resets: list[dict[str, str]], bp: Blueprint) -> None:
    """Remove the files a reset invalidates (the snapshot keeps them), so that no later reader
    mixes a new attempt with an old one of the same name."""
    entries = {e.id: e for e in bp.entries}
    for reset in resets:
        keep = KEPT_AUDITS[reset["action"]]
        folder = ws.audit_dir(reset["id"])
        for path in sorted(folder.rglob("*"), reverse=True) if folder.is_dir() else []:
            top = path.relative_to(folder).parts[0]
            if any(fnmatch.fnmatch(top, pattern) for pattern in keep):
                continue
            if path.is_dir():
                path.rmdir()
            else:
                path.unlink()
        if reset["action"] == "re-prove":
            _restore_faithfulness(folder)
        entry = entries.get(reset["id"])
        if entry is not None:
            _remove_modules(ws.root / entry.lean_file)


def _restore_faithfulness(folder: Path) -> None:
    """A re-prove keeps the gate, and so the faithfulness evidence its rounds wrote: the
    latest record is its last round's again (the gate step writes the two alike), without what
    the audit added for the proof being redone (the hypotheses that proof did not need). It
    was deleted with the proof: the report then showed no counterexample probe for the gated
    statement."""
    rounds = [
        (int(m.group(1)), path)
        for path in folder.glob("faithfulness-*.json")
        if (m := re.fullmatch(r"faithfulness-(\d+)\.json", path.name))
    ]
    if rounds:
        write_bytes_atomic(folder / FAITHFUL_FILE, max(rounds)[1].read_bytes())


def _remove_modules(module: Path) -> None:
    """A result's final Lean file and its counterexample files; never a neighbour's
    (`Lem_mean.lean` must not take `Lem_mean_max.lean` with it)."""
    if not module.parent.is_dir():
        return
    for path in module.parent.iterdir():
        if path.name == module.name or path.name.startswith(module.stem + "_counterexample."):
            path.unlink()


def _read_sources(project_dir: Path, inventory: Inventory) -> dict[str, str]:
    base = project_dir.resolve()
    out = {}
    for entry in inventory.files:
        path = (base / entry.path).resolve()
        if path.is_relative_to(base) and path.is_file():
            out[entry.path] = path.read_text(encoding="utf-8", errors="replace")
    return out


def _project_dir(paper: Path) -> Path:
    return paper if paper.is_dir() else paper.parent


def _replace_source(ws: Workspace, project_dir: Path, inventory: Inventory) -> None:
    """The kept copy becomes the new version: exactly the files preflight read (as `check`)."""
    keep_sources(project_dir, ws, inventory)


def _rewrite_run_config(ws: Workspace, paper: Path, replay: Path | None) -> None:
    spec = read_spec(ws.config)
    edges = spec.edges if replay is None else replace(spec.edges, replay=replay.resolve())
    write_spec(ws.config, replace(spec, paper=paper.resolve(), edges=edges))


def _revision_entry(
    stamp: str, ws: Workspace, snapshot: Path, paper: Path, plan: dict[str, Any]
) -> dict[str, Any]:
    return {
        "at": stamp,
        "paper": str(paper.resolve()),
        "snapshot": ws.rel(snapshot),
        "mapping": {m["old"]: m["new"] for m in plan["matched"]},
        **{k: plan[k] for k in ("reset", "renumbered", "added", "removed", "moved", "estimate")},
    }


def _event_fields(entry: dict[str, Any]) -> dict[str, Any]:
    return {
        "paper": entry["paper"],
        "snapshot": entry["snapshot"],
        "reset": entry["reset"],
        "added": entry["added"],
        "removed": entry["removed"],
        "renumbered": [r["id"] for r in entry["renumbered"]],
        "renamed": {old: new for old, new in entry["mapping"].items() if old != new},
    }

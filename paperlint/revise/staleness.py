"""Which results a change of the paper makes stale: those a revision would reset (statement,
proof or a dependency changed) or drop, as `revise --dry-run` plans it (#28). Reads only."""

from __future__ import annotations

from paperlint.engine.staleness import Staleness, changed_files
from paperlint.errors import PaperlintError
from paperlint.records.workspace import Workspace
from paperlint.revise.revise import preview_revision


def staleness(ws: Workspace, *, per_result: bool = True) -> Staleness:
    """What changed since the check; with `per_result`, which results it makes stale (a
    dry-run revision of the workspace to the paper as it is now)."""
    paper, files = changed_files(ws)
    if not files or not per_result:
        return Staleness(paper, files)
    try:
        plan = preview_revision(ws.root, paper).plan
    except PaperlintError as exc:  # the new text does not read: every result is stale
        why = f"the paper changed and cannot be read now ({exc})"
        return Staleness(paper, files, dict.fromkeys(_ids(ws), why))
    old_of = {m["new"]: m["old"] for m in plan["matched"]}
    stale = {
        old_of.get(r["id"], r["id"]): f"{r['why']} (revise will {r['action']})"
        for r in plan["reset"]
    }
    stale |= dict.fromkeys(plan["removed"], "no longer in the paper")
    return Staleness(paper, files, stale)


def _ids(ws: Workspace) -> list[str]:
    return [r.id for r in ws.load_results().results]

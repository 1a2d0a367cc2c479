"""The "since the previous version" section, after `paperlint revise` (issue #8).

The data comes from `paperlint.records.revisions`, which compares the results kept in the newest
revision's snapshot with the current records; nothing here calls a model or Lean.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from paperlint.reports import mdtext as md


def load_since(workspace: Path) -> dict[str, Any] | None:
    from paperlint.records.revisions import since_previous

    if not (workspace / "revision.json").exists():
        return None
    return since_previous(workspace)


def since_rows(since: dict[str, Any]) -> dict[str, list[list[str]]]:
    """Table rows per part: verdicts changed, issues fixed, issues introduced."""

    def text(value: Any) -> str:
        return "—" if value is None else str(getattr(value, "value", value))

    return {
        "Verdicts that changed": [
            [c["id"], text(c.get("from")), text(c.get("to"))]
            for c in since.get("verdicts_changed", [])
        ],
        "Issues fixed": [
            [i["id"], text(i.get("class")), text(i.get("now"))]
            for i in since.get("issues_fixed", [])
        ],
        "Issues introduced": [
            [i["id"], text(i.get("class")), text(i.get("was"))]
            for i in since.get("issues_introduced", [])
        ],
        # an unlabelled result's id is its number: renumbered, its id changed with it
        "Renumbered or renamed": [
            [_renumbered(r), text(r.get("from")), text(r.get("to"))]
            for r in since.get("renumbered", [])
        ],
    }


def _renumbered(row: dict[str, Any]) -> str:
    new, old = str(row.get("id", "")), row.get("old_id")
    return new if old in (None, new) else f"{new} (was {old})"


HEADERS = {
    "Verdicts that changed": ["Result", "Was", "Now"],
    "Issues fixed": ["Result", "Issue class", "Now"],
    "Issues introduced": ["Result", "Issue class", "Was"],
    "Renumbered or renamed": ["Result", "Number was", "Number now"],
}


def since_lines(since: dict[str, Any] | None) -> list[str]:
    if since is None:
        return []
    lines = ["## Since the previous version", ""]
    lines.append(
        f"Revised at {md.inline(str(since.get('at', '')))}; {len(since.get('reset', []))} results "
        f"were re-checked, {len(since.get('added', []))} added, "
        f"{len(since.get('removed', []))} removed."
    )
    lines.append("")
    for title, rows in since_rows(since).items():
        lines += [f"### {title}", ""]
        if rows:
            cells = [[md.inline(c) for c in row] for row in rows]
            lines += [*md.table(HEADERS[title], cells), ""]
        else:
            lines += ["None.", ""]
    return lines

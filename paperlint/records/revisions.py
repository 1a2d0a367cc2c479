"""`revision.json` (`paperlint.revision/1`): every revision of a check, oldest first, and what
changed since the newest one.

Each entry: `at` (the snapshot's stamp), `paper`, `snapshot` (workspace-relative), `mapping`
(old id -> new id), `reset` (as the dry run prints it), `renumbered`, `added`, `removed`,
`moved`, `estimate`. `paperlint revise` appends them; the report's "since the previous version"
section reads them (`since_previous`): None when the check was never revised, else the changes
between the results kept in the newest revision's snapshot and the current `results.json`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from paperlint.records.migrate import read_results
from paperlint.records.results import ResultRecord, Results, Verdict
from paperlint.store import write_json_atomic

REVISION_SCHEMA: Final = "paperlint.revision/1"
REVISION_FILE: Final = "revision.json"


def append_revision(workdir: Path, entry: dict[str, Any]) -> None:
    path = workdir / REVISION_FILE
    record = read_revisions(workdir)
    record["revisions"].append(entry)
    write_json_atomic(path, record)


def read_revisions(workdir: Path) -> dict[str, Any]:
    """The `revision.json` record: every revision of this check, oldest first."""
    path = workdir / REVISION_FILE
    if not path.exists():
        return {"schema": REVISION_SCHEMA, "revisions": []}
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


VERIFIED = {Verdict.VERIFIED_UNCONDITIONAL, Verdict.VERIFIED_CONDITIONAL}


def since_previous(workdir: Path) -> dict[str, Any] | None:
    """The "since the previous version" section's data, from the newest revision."""
    revisions = read_revisions(workdir)["revisions"]
    if not revisions:
        return None
    last = revisions[-1]
    before = read_results(workdir / last["snapshot"] / "results.json")
    now = read_results(workdir / "results.json")
    section = compare_results(before, now, last["mapping"])
    numbered = {r["id"] for r in last["renumbered"]}
    number = {r.id: r.number for r in now.results}
    renamed = [  # an id changed and the number did not: a label renamed
        {"id": new, "old_id": old, "from": number.get(new), "to": number.get(new)}
        for old, new in last["mapping"].items()
        if old != new and new not in numbered
    ]
    return {
        "previous": last["snapshot"],
        "at": last["at"],
        "reset": last["reset"],
        "renumbered": [*last["renumbered"], *renamed],
        **section,
    }


def compare_results(before: Results, now: Results, mapping: Mapping[str, str]) -> dict[str, Any]:
    """Verdicts that changed, issues fixed and issues introduced; `mapping` is old id -> new id.

    An issue is *fixed* when the result is now verified; an issue whose result was removed, or
    that is now unfinished, is not counted as fixed (nothing shows the new text is right)."""
    old_of = {new: old for old, new in mapping.items()}
    kept = {r.id: r for r in before.results}
    changed, fixed, introduced = [], [], []
    for record in now.results:
        previous = kept.get(old_of.get(record.id, ""))
        was = previous.verdict if previous else None
        if previous is not None and (was, _class(previous)) != (record.verdict, _class(record)):
            changed.append(_change(record, previous))
        if was is Verdict.ISSUE and record.verdict in VERIFIED:
            fixed.append({"id": record.id, "class": _class(previous), "now": record.verdict})
        if record.verdict is Verdict.ISSUE and (previous is None or _class(previous) is None):
            introduced.append({"id": record.id, "class": _class(record), "was": was})
    removed = [r.id for r in before.results if r.id not in mapping]
    added = [r.id for r in now.results if r.id not in old_of]
    return {
        "verdicts_changed": changed,
        "issues_fixed": fixed,
        "issues_introduced": introduced,
        "added": added,
        "removed": removed,
    }


def _class(record: ResultRecord | None) -> str | None:
    if record is None or record.verdict is not Verdict.ISSUE or record.issue is None:
        return None
    return record.issue.class_.value


def _change(record: ResultRecord, previous: ResultRecord) -> dict[str, Any]:
    return {
        "id": record.id,
        "old_id": previous.id,
        "from": previous.verdict,
        "to": record.verdict,
        "class_from": _class(previous),
        "class_to": _class(record),
    }

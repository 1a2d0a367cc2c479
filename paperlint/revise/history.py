"""`revision.json` (`paperlint.revision/1`): every revision of a check, oldest first.

Each entry: `at` (the snapshot's stamp), `paper`, `snapshot` (workspace-relative), `mapping`
(old id -> new id), `reset` (as the dry run prints it), `renumbered`, `added`, `removed`,
`moved`, `estimate`. The report's "since the previous version" section reads it (`since.py`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from paperlint.records import write_json_atomic

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

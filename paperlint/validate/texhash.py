"""The hash that ties a gate review to the exact TeX statements it reviewed.

A gate record names the sha256 of the result's TeX statement and of each dependency's, as
preflight read them; `validate` re-runs preflight on the kept `source/` and requires the same
hashes now, so a revision that changed a definition cannot keep the old gate's verdicts.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import Any


def statement_sha256(statement: str) -> str:
    """sha256 of a TeX statement, whitespace runs collapsed (reflowing is not a change)."""
    return hashlib.sha256(" ".join(statement.split()).encode("utf-8")).hexdigest()


def gate_tex(
    result_id: str, dependencies: Iterable[str], statements: Mapping[str, str]
) -> dict[str, Any]:
    """The `tex` block of a gate record: the result's and its dependencies' statement hashes."""
    return {
        "statement_sha256": statement_sha256(statements.get(result_id, "")),
        "dependencies": {
            dep: statement_sha256(statements[dep]) for dep in dependencies if dep in statements
        },
    }

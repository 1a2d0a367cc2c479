"""Where a result's faithfulness evidence lives in a check workspace, and reading it back.

`audits/<id>/faithfulness.json` (the latest round; `faithfulness-N.json` per gate round), a
`paperlint.faithfulness/1` record. A file that is missing or unreadable is "no evidence",
never a pass.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from paperlint.faithful.model import FaithfulnessEvidence

FILE = "faithfulness.json"


def round_file(gate_round: int) -> str:
    """The evidence the gate's round N was shown (`FILE` is the latest round's, plus what
    the audit added)."""
    return f"faithfulness-{gate_round}.json"


def read_evidence(path: Path) -> FaithfulnessEvidence | None:
    try:
        return FaithfulnessEvidence.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, ValidationError, json.JSONDecodeError):
        return None

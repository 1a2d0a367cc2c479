"""Helpers for writing an example fixture's scripted-model transcript.

The transcript of an example fixture is authored by hand (no model API is reachable where the
fixtures were made): each answer is what a careful agent would write, and the file says so.
Entries are keyed by (task, result, obligation, attempt), like a recorded transcript.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


class Transcript:
    def __init__(self) -> None:
        self.lines: list[dict[str, Any]] = []

    def add(
        self,
        task: str,
        role: str,
        result: str,
        answer: dict[str, Any],
        *,
        obligation: str | None = None,
        attempt: int = 1,
    ) -> None:
        text = json.dumps(answer, ensure_ascii=False)
        self.lines.append(
            {
                "task": task,
                "role": role,
                "result": result,
                "obligation": obligation,
                "attempt": attempt,
                "repair": 0,
                "prompt_sha256": None,
                "response": text,
                "usage": {"prompt_tokens": None, "completion_tokens": None},
                "model": "hand-authored",
            }
        )

    def write(self, path: Path) -> None:
        body = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in self.lines)
        path.write_text(body, encoding="utf-8")


FIDELITY_FIELDS = (
    "object_class",
    "quantifier_order",
    "parameter_domains",
    "codomain",
    "hypotheses",
    "conclusion",
    "follow_on_claims",
)


def fidelity(**fields: str) -> dict[str, str]:
    return {k: fields.get(k, "") for k in FIDELITY_FIELDS}


def gate_pass(note: str = "matches the paper") -> dict[str, Any]:
    return {
        "decision": "PASS",
        "fields": [{"field": f, "ok": True, "comment": note} for f in FIDELITY_FIELDS],
        "reasons": [],
    }


def audit_pass(note: str) -> dict[str, Any]:
    return {"decision": "PASS", "findings": [note], "route_followed": True}

"""Helpers for writing an example fixture's scripted-model transcript.

The transcript of an example fixture is authored by hand (no model API is reachable where the
fixtures were made): each answer is what a careful agent would write, and the file says so.
Entries are keyed by (task, result, obligation, attempt), like a recorded transcript.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from paperlint.agents.transcript import HASH_FIELDS


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
        """Write the answers; an answer the file already holds keeps its stamped prompt
        hashes (and its copies for a key's other questions), so authoring again does not undo
        `stamp`. A changed answer is unstamped until `stamp` runs."""
        kept: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
        if path.is_file():
            for text in path.read_text(encoding="utf-8").splitlines():
                row = json.loads(text)
                kept.setdefault(_identity(row), []).append(row)
        rows = []
        for line in self.lines:
            stamped = [
                {**line, **{k: row.get(k) for k in HASHES}} for row in kept.get(_identity(line), [])
            ]
            rows += stamped or [line]
        body = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
        path.write_text(body, encoding="utf-8")


HASHES = HASH_FIELDS


def _identity(row: dict[str, Any]) -> tuple[Any, ...]:
    """An answer by its key and text (not its hashes)."""
    return (
        row["task"],
        row.get("result"),
        row.get("obligation"),
        int(row.get("attempt") or 1),
        int(row.get("repair") or 0),
        int(row.get("turn") or 0),
        row["response"],
    )


def stamp(replay_dir: Path) -> None:
    """Stamp the prompt hashes the flows using `replay_dir` ask (scripts/stamp_prompts.py):
    the last step of every fixture's `author.py`, once its Lean answers are written."""
    import stamp_prompts

    if stamp_prompts.main([str(replay_dir)]) != 0:
        raise SystemExit(f"{replay_dir}: some answers were never asked; remove them")


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

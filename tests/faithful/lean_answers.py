"""HAND-WRITTEN Lean answers for the faithfulness tests and fixtures (no Lean was available).

`Author` is a `Verifier` that answers every request by explicit rules (candidate text →
a REPL JSON answer), records each request/answer pair in the shape `ReplayVerifier` reads
(`paperlint/lean/replay.py`), and writes them as `lean.jsonl`. Tests then replay that file
through `ReplayVerifier`, so the answers go through the same parsing and acceptance code as a
live run. Every entry is labelled `"note": "hand-written"`. Message texts are plausible only:
`plausible`'s counterexample report and `exact?`'s `Try this:` follow their documented shape,
unverified against Lean 4.35. Re-record with `LeanRecorder` (`check --record`) on a machine
with Lean.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from paperlint.lean import responses
from paperlint.lean.replay import key_for_request
from paperlint.lean.verifier import AxiomReport, FinalCheck, LeanCheck, LeanContext, Outcome

TOOLCHAIN = "leanprover/lean4:v4.35.0"
NOTE = "hand-written (faithfulness tests; not recorded from Lean)"
STANDARD = "[propext, Classical.choice, Quot.sound]"

Answer = dict[str, Any]
Rule = Callable[[str], Answer | None]  # candidate -> the REPL answer (without env), or None


def _pos(line: int, column: int) -> dict[str, int]:
    return {"line": line, "column": column}


def message(severity: str, data: str, *, line: int = 1, column: int = 0) -> dict[str, Any]:
    return {
        "severity": severity,
        "pos": _pos(line, column),
        "endPos": _pos(line, column + 5),
        "data": data,
    }


def ok(*messages: dict[str, Any]) -> Answer:
    return {"messages": list(messages)} if messages else {}


def error(text: str, *, line: int = 3) -> Answer:
    return {"messages": [message("error", text, line=line, column=2)]}


def try_this(suggestion: str) -> Answer:
    return ok(message("info", f"Try this: {suggestion}", line=3, column=2))


def counterexample(bindings: dict[str, str], issue: str) -> Answer:
    lines = ["===================", "Found a counterexample!"]
    lines += [f"{name} := {value}" for name, value in bindings.items()]
    lines += [f"issue: {issue}", "(0 shrinks)", "-------------------"]
    return error("\n".join(lines), line=2)


def when(fragment: str, answer: Answer) -> Rule:
    """Answer candidates containing `fragment`."""
    return lambda candidate: answer if fragment in candidate else None


def when_all(fragments: Sequence[str], answer: Answer) -> Rule:
    """Answer candidates containing every one of `fragments`."""
    return lambda candidate: answer if all(f in candidate for f in fragments) else None


class Author:
    """A `Verifier` answering by rules; the first matching rule wins, else a generic error."""

    is_replay = True

    def __init__(self, rules: Sequence[Rule], *, axioms: str = STANDARD) -> None:
        self.rules = list(rules)
        self.axioms = axioms
        self.entries: list[dict[str, Any]] = [{"kind": "comment", "note": NOTE}]
        self.env = 0
        self.checks: list[str] = []

    def _entry(self, kind: str, request: dict[str, Any], response: Answer) -> None:
        self.entries.append(
            {
                "kind": kind,
                "key": key_for_request(kind, request),
                "request": request,
                "response": response,
                "raise": None,
                "failure": None,
                "toolchain": TOOLCHAIN,
                "note": NOTE,
            }
        )

    def check(self, context: LeanContext, candidate: str, *, timeout_s: float) -> LeanCheck:
        self.env += 1
        self.checks.append(candidate)
        answer = next((a for rule in self.rules if (a := rule(candidate)) is not None), None)
        if answer is None:
            answer = error("linarith failed to find a contradiction")
        raw = {**answer, "env": self.env}
        request = {"header": context.header, "accepted": list(context.accepted)}
        self._entry("check", {**request, "candidate": candidate}, raw)
        return responses.check_from_response(raw, candidate, replay=True)

    def print_axioms(
        self, context: LeanContext, names: Sequence[str], *, timeout_s: float
    ) -> AxiomReport:
        raw = {
            "messages": [
                message("info", f"'{name}' depends on axioms: {self.axioms}", line=i)
                for i, name in enumerate(names, start=1)
            ],
            "env": self.env,
        }
        request = {"header": context.header, "accepted": list(context.accepted)}
        self._entry("axioms", {**request, "names": list(names)}, raw)
        return responses.axioms_from_response(raw, names, replay=True)

    def final_check(self, file: Path, names: Sequence[str], *, timeout_s: float) -> FinalCheck:
        return FinalCheck(outcome=Outcome.UNAVAILABLE, file_sha256="", replay=True)

    def close(self) -> None:
        pass

    def lines(self) -> list[str]:
        return [json.dumps(e, ensure_ascii=False) for e in self.entries]

    def write(self, folder: Path) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "lean.jsonl"
        path.write_text("\n".join(self.lines()) + "\n", encoding="utf-8")
        return path

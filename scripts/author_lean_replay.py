"""Write an example fixture's Lean replay (`replay/lean.jsonl`) by running its check once.

There is no Lean where these fixtures were made, so the Lean answers are hand-written: every
request the engine sends is answered by the rules below, shaped exactly like the REPL's JSON
and `lake env lean`'s text, and stored with `"note": "hand-written"`. The replay then serves
them through the same parsing path as a live run. On a machine with Lean, re-record them with
`LeanRecorder` (`check --record`) and compare.

Rules: a text containing `sorry` elaborates with a sorry warning (statements with `sorry`
proofs); a candidate whose text contains a key of `replay/lean-rules.json`'s "reject" table is
rejected with that error; everything else is accepted. Final checks build cleanly and print
the three standard axioms, except a file containing a key of the "final_reject" table, whose
build fails with that error (a proof the warm REPL accepted that the cold build does not).

usage: python scripts/author_lean_replay.py fixtures/<name> [OUT.jsonl]
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from paperlint.config import Config
from paperlint.engine.check import CheckRequest, start_check
from paperlint.lean import responses
from paperlint.lean.final import ProcessRun, final_from_runs
from paperlint.lean.messages import marked_axiom_queries, marker_id
from paperlint.lean.pins import default_project_dir, read_pins
from paperlint.lean.replay import key_for_request
from paperlint.lean.verifier import (
    AxiomReport,
    FinalCheck,
    LeanCheck,
    LeanContext,
    Outcome,
    Verifier,
)

SORRY = re.compile(r"\bsorry\b")
VACUITY = re.compile(r"_vacuous\b|↔ True := by")
DECL = re.compile(r"^(?:theorem|lemma)\s+(\S+)", re.M)
STANDARD = "[propext, Classical.choice, Quot.sound]"


class AuthoringVerifier(Verifier):
    is_replay = True

    def __init__(self, out: Path, rules: dict[str, Any], *, answer_axioms: bool = False) -> None:
        self.out = out
        # Answer `#print axioms` with the three standard axioms (the automation ladder's
        # acceptance rule asks); off by default, as the older fixtures were authored without.
        self.answer_axioms = answer_axioms
        self.reject: dict[str, str] = rules.get("reject", {})
        # final checks of a file containing a key of "final_reject" fail with that error
        self.final_reject: dict[str, str] = rules.get("final_reject", {})
        self.toolchain = read_pins(default_project_dir()).toolchain
        self.env = 0
        self.lines: list[str] = []

    def _write(self, kind: str, request: dict[str, Any], response: dict[str, Any]) -> None:
        entry = {
            "kind": kind,
            "key": key_for_request(kind, request),
            "request": request,
            "response": response,
            "toolchain": self.toolchain,
            "note": "hand-written",
        }
        self.lines.append(json.dumps(entry, ensure_ascii=False))

    def check(self, context: LeanContext, candidate: str, *, timeout_s: float) -> LeanCheck:
        self.env += 1
        raw: dict[str, Any] = {"env": self.env}
        rejected = next((err for key, err in self.reject.items() if key in candidate), None)
        if rejected is None and VACUITY.search(candidate):
            rejected = "linarith failed to find a contradiction"  # the statements are not vacuous
        if rejected is not None:
            last = candidate.rstrip().count("\n") + 1
            raw["messages"] = [
                {
                    "severity": "error",
                    "pos": {"line": last, "column": 2},
                    "endPos": {"line": last, "column": 11},
                    "data": rejected,
                }
            ]
        elif SORRY.search(candidate):
            raw["messages"], raw["sorries"] = _sorry_answers(candidate, self.env)
        request = {
            "header": context.header,
            "accepted": list(context.accepted),
            "candidate": candidate,
        }
        self._write("check", request, raw)
        return responses.check_from_response(raw, candidate, replay=True)

    def print_axioms(
        self, context: LeanContext, names: Sequence[str], *, timeout_s: float
    ) -> AxiomReport:
        if not self.answer_axioms:
            return AxiomReport(outcome=Outcome.UNAVAILABLE, replay=True, hint="not authored")
        self.env += 1
        raw: dict[str, Any] = {
            "messages": [
                {
                    "severity": "info",
                    "pos": {"line": line, "column": 0},
                    "endPos": {"line": line, "column": 5},
                    "data": f"'{name}' depends on axioms: {STANDARD}",
                }
                for line, name in enumerate(names, start=1)
            ],
            "env": self.env,
        }
        request = {
            "header": context.header,
            "accepted": list(context.accepted),
            "names": list(names),
        }
        self._write("axioms", request, raw)
        return responses.axioms_from_response(raw, names, replay=True)

    def final_check(self, file: Path, names: Sequence[str], *, timeout_s: float) -> FinalCheck:
        text = file.read_text(encoding="utf-8")
        sha = hashlib.sha256(text.encode()).hexdigest()
        build = ProcessRun(exit_code=0, output="", duration_s=0.0)
        failed = next((err for key, err in self.final_reject.items() if key in text), None)
        if failed is not None:  # the cold build fails where the warm check passed
            line = next(n for n, t in enumerate(text.splitlines(), 1) if _first_key(t, self))
            build = ProcessRun(
                exit_code=1, output=f"{file.name}:{line}:2: error: {failed}\n", duration_s=0.0
            )
        lines = []
        for name in names:
            mid = marker_id(name, sha)
            lines += [
                f'"PAPERLINT_AXIOMS_BEGIN_{mid}" : String',
                f"'{name}' depends on axioms: {STANDARD}",
                f'"PAPERLINT_AXIOMS_END_{mid}" : String',
            ]
        assert marked_axiom_queries(names, sha)  # the queries the live checker would append
        axioms = ProcessRun(exit_code=0, output="\n".join(lines) + "\n", duration_s=0.0)
        request = {"file_sha256": sha, "names": list(names)}
        self._write("final", request, {"build": build.to_raw(), "axioms": axioms.to_raw()})
        return final_from_runs(
            sha,
            names,
            build,
            axioms,
            command=("lake", "env", "lean", file.name),
            toolchain=self.toolchain,
            replay=True,
        )

    def close(self) -> None:
        header = json.dumps(
            {
                "kind": "comment",
                "note": "hand-written Lean answers, made by "
                "scripts/author_lean_replay.py; not recorded from Lean "
                "(no toolchain was available)",
            }
        )
        self.out.write_text("\n".join([header, *self.lines]) + "\n", encoding="utf-8")


def _first_key(line: str, verifier: AuthoringVerifier) -> bool:
    return any(key in line for key in verifier.final_reject)


def _sorry_answers(candidate: str, env: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    messages, sorries = [], []
    lines = candidate.splitlines()
    for number, line in enumerate(lines, start=1):
        head = DECL.match(line)
        if head:
            messages.append(
                {
                    "severity": "warning",
                    "pos": {"line": number, "column": len(line) - len(line.lstrip()) + 8},
                    "endPos": {"line": number, "column": 8 + len(head.group(1))},
                    "data": "declaration uses `sorry`",
                }
            )
        col = line.find("sorry")
        if col >= 0 and SORRY.search(line):
            sorries.append(
                {
                    "pos": {"line": number, "column": col},
                    "endPos": {"line": number, "column": col + 5},
                    "goal": "⊢ (goal as stated)",
                    "proofState": env,
                }
            )
    return messages, sorries


def main(fixture: Path, out: Path | None = None) -> None:
    """Author `fixture`'s Lean answers into `out` (default: its `replay/lean.jsonl`)."""
    replay = fixture / "replay"
    rules_path = replay / "lean-rules.json"
    rules = json.loads(rules_path.read_text()) if rules_path.exists() else {}
    verifier = AuthoringVerifier(out or replay / "lean.jsonl", rules)

    with tempfile.TemporaryDirectory() as tmp:
        request = CheckRequest(
            paper=fixture / "paper.tex",
            config=Config(),
            workdir=Path(tmp) / "ws",
            replay=replay,
            verifier=verifier,
            report=False,
        )
        summary = start_check(request)
    print(f"{fixture}: {summary.counts}; wrote {len(verifier.lines)} Lean answers")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]) if len(sys.argv) > 2 else None)

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

The trusted checker (issue #25, docs/checker.md) is answered the same way: every module
compiles, except a proof module containing a "final_reject" key; the checker's record is
written from the modules' text (`authored_record`): the reference statement as the gate
passed it (a refutation's `Not (type_of% @name)` read as `¬ (` the text of `name`'s
statement `)`, as Lean elaborates it to the negation of that statement's type), the candidate
equal to it when its statement's text is the reference's, the standard axioms, a passing
kernel replay, and the declarations each module the candidate imports adds. Those records are
hand-written in the checker's format, not the program's output.

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
from paperlint.lean.modules import CheckJob, LeanModule
from paperlint.lean.pins import default_project_dir, read_pins
from paperlint.lean.replay import key_for_request
from paperlint.lean.trusted import CompileRun, TrustedRun, conclude
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

    def trusted_check(self, job: CheckJob, *, timeout_s: float) -> TrustedRun:
        compiles: list[CompileRun] = []
        for module in job.modules:
            failed = next((e for k, e in self.final_reject.items() if k in module.text), None)
            if module.untrusted and failed is not None:
                output = f"{module.path}:1:0: error: {failed}\n"
                compiles.append(CompileRun(module=module.name, exit_code=1, output=output))
                break
            compiles.append(CompileRun(module=module.name, exit_code=0))
        built = all(c.exit_code == 0 for c in compiles)
        record = authored_record(job) if built else None
        checker = CompileRun(module="checker", exit_code=0) if built else None
        response = {
            "compile": [c.model_dump(mode="json") for c in compiles],
            "checker": checker.model_dump(mode="json") if checker else None,
            "record": record,
        }
        self._write("checker", job.described(), response)
        run = ProcessRun(exit_code=0, output="") if built else None
        raw = json.dumps(record) if record is not None else None
        return conclude(job, compiles, run, raw, replay=True)

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


_KINDS = {
    "theorem": "theorem", "lemma": "theorem", "def": "def", "abbrev": "def", "instance": "def",
    "axiom": "axiom", "opaque": "opaque", "inductive": "inductive", "structure": "inductive",
    "class": "inductive",
}  # fmt: skip
_BINDERS = {"(": "default", "{": "implicit", "⦃": "strict_implicit", "[": "inst_implicit"}
STANDARD_AXIOMS = ["propext", "Classical.choice", "Quot.sound"]


def authored_record(job: CheckJob) -> dict[str, Any]:
    """A `paperlint.checker/1` record written from the modules' text, in the checker's format
    (hand-written: no checker ran). The statement's `type` is its text, not Lean's print."""
    request = job.request
    reference = job.module(request.reference_module)
    assert reference is not None
    gated = _statement(reference, request.target, job)
    candidate = None
    if request.candidate_module is not None:
        proof = job.module(request.candidate_module)
        assert proof is not None
        mine = _statement(proof, request.target, job)
        if mine is not None:
            equal = gated is not None and mine["type"] == gated["type"]
            candidate = {**mine, "module": proof.name, "type_equal": equal}
    local = _closure(job, request.candidate_module or request.reference_module)
    added = [a for m in local for a in _added(m)]
    return {
        "schema": "paperlint.checker/1",
        "lean": "4.35.0",
        "mode": request.mode,
        "target": request.target,
        "reference_module": request.reference_module,
        "candidate_module": request.candidate_module,
        "reference": None
        if gated is None
        else {
            **gated,
            "hypotheses": _hypotheses(reference, request.target),
            "constants": [],
            "imports": [
                line.split()[1]
                for line in reference.text.splitlines()
                if line.startswith("import ")
            ],
        },  # fmt: skip
        "candidate": candidate,
        "auxiliaries": [],
        "axioms": STANDARD_AXIOMS if candidate is not None else None,
        "unknown": [],
        "replay": {"ok": True, "error": None, "constants": len(added)},
        "added": added,
        "entries": [
            {"module": m.name, "extension": "Lean.declRangeExt", "count": len(_added(m))}
            for m in local
            if _added(m)
        ],
        "error": None,
    }


TYPE_OF = re.compile(r"Not \(type_of% @_root_\.(\S+?)\)")


def _closure(job: CheckJob, start: str) -> list[LeanModule]:
    """The local modules `start` imports, transitively, and itself: what the checker reads."""
    seen: list[str] = []
    todo = [start]
    while todo:
        name = todo.pop()
        module = job.module(name)
        if name in seen or module is None:
            continue
        seen.append(name)
        todo += [line.split()[1] for line in module.text.splitlines() if line.startswith("import ")]
    return [m for m in job.modules if m.name in seen]


def _statement(module: LeanModule, name: str, job: CheckJob) -> dict[str, Any] | None:
    from paperlint.lean.compose import as_proposition, parse_declaration
    from paperlint.lean.declarations import declarations

    for decl in declarations(module.text):
        if decl.name == name:
            parts = parse_declaration(module.text[decl.command.start : decl.command.end])
            if parts is None:
                return None
            text = " ".join(as_proposition(parts).split())
            text = TYPE_OF.sub(lambda m: "¬ (" + _type_of(job, m[1]) + ")", text)
            digest = hashlib.sha256(text.encode()).hexdigest()
            return {
                "name": name, "kind": _KINDS.get(decl.kind, "def"), "levels": [],
                "type": text, "type_hash": str(int(digest[:15], 16)),
            }  # fmt: skip
    return None


def _type_of(job: CheckJob, name: str) -> str:
    """`type_of% @name`, as the text of `name`'s statement in the job's reference modules."""
    for module in job.modules:
        if module.name.startswith("PaperlintCheck.Reference."):
            found = _statement(module, name, job)
            if found is not None:
                return str(found["type"])
    raise ValueError(f"no reference module states {name}")


def _hypotheses(module: LeanModule, name: str) -> list[dict[str, str]]:
    from paperlint.lean.compose import binder_groups, parse_declaration
    from paperlint.lean.declarations import declarations

    found: list[dict[str, str]] = []
    for decl in declarations(module.text):
        source = module.text[decl.command.start : decl.command.end]
        parts = parse_declaration(source) if decl.name == name else None
        for opener, inner in binder_groups(parts.binders) if parts else []:
            names, _, kind = inner.partition(":")
            for one in names.split() or ["inst✝"]:
                found.append({"name": one, "type": " ".join(kind.split()),
                              "binder": _BINDERS[opener]})  # fmt: skip
    return found


def _added(module: LeanModule) -> list[dict[str, Any]]:
    from paperlint.lean.declarations import declarations

    return [
        {"name": d.name, "module": module.name, "kind": _KINDS.get(d.kind, "def"),
         "unsafe": False, "partial": False}
        for d in declarations(module.text)
        if d.name
    ]  # fmt: skip


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


def main_revision(base: Path, paper: Path, replay: Path, rules: dict[str, Any]) -> None:
    """Author the Lean answers a revision re-does: check `base` (its replay), revise to
    `paper` with `replay`, and resume with the rules answering Lean into `replay/lean.jsonl`."""
    from paperlint.engine.check import resume_check
    from paperlint.revise.revise import ReviseRequest, revise

    verifier = AuthoringVerifier(replay / "lean.jsonl", rules)
    with tempfile.TemporaryDirectory() as tmp:
        ws = Path(tmp) / "ws"
        request = CheckRequest(
            paper=base / "paper.tex",
            config=Config(),
            workdir=ws,
            replay=base / "replay",
            report=False,
        )
        start_check(request)
        revise(ReviseRequest(workdir=ws, paper=paper, replay=replay))
        summary = resume_check(ws, verifier=verifier, report=False)
    print(f"{paper.parent}: {summary.counts}; wrote {len(verifier.lines)} Lean answers")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]) if len(sys.argv) > 2 else None)

"""`replay` never hands Lean a file that `validate` rejects (issue #25, item 5).

Each forged workspace puts code with effects (`#eval IO.FS.writeFile …`, `run_cmd`,
`initialize`) into a Lean file the replay would build. A spy stands in for Lean and records
every request: none may name a rejected result's files or modules, and each such result is
reported as not handed to Lean, with validate's rules named."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperlint.lean.verifier import FinalCheck, LeanCheck, Outcome
from paperlint.validate.load import load_snapshot
from paperlint.validate.replay import LeanSource, replay_workspace
from tests.validate.conftest import edit_record, edit_text, rehash

MAX_FILE = "lean/Paper/Lem_mean_max.lean"
CEX_FILE = "lean/Paper/Prop_square_counterexample.lean"
WRITE = '#eval IO.FS.writeFile "/tmp/paperlint-pwned" "owned"'


class Spy:
    """Stands in for live Lean: answers nothing, remembers every file and job it was given."""

    is_replay = False

    def __init__(self) -> None:
        self.files: list[str] = []
        self.jobs: list[str] = []
        self.texts: list[str] = []

    def final_check(self, file: Path, names, *, timeout_s: float) -> FinalCheck:
        self.files.append(str(file))
        self.texts.append(file.read_text(encoding="utf-8"))
        return FinalCheck(outcome=Outcome.UNAVAILABLE, file_sha256="")

    def check(self, context, candidate, *, timeout_s):
        self.texts.append(candidate)
        return LeanCheck(outcome=Outcome.UNAVAILABLE)

    def trusted_check(self, job, *, timeout_s):
        from paperlint.lean.trusted import unavailable

        self.jobs.append(job.request.target)
        self.texts += [m.text for m in job.modules]
        return unavailable(job, "spy")


def _replayed(ws: Path) -> tuple[Spy, dict]:
    spy = Spy()
    report = replay_workspace(load_snapshot(ws), ws, LeanSource("live", "spy", spy))
    return spy, {r.id: r for r in report.results}


FORGERIES = [
    ("eval writes a file in the final module", MAX_FILE, "theorem lem_mean_max_s1",
     f"{WRITE}\n\ntheorem lem_mean_max_s1", "lem:mean-max"),
    ("run_cmd in the final module", MAX_FILE, "theorem lem_mean_max_s1",
     'run_cmd Lean.logInfo "x"\n\ntheorem lem_mean_max_s1', "lem:mean-max"),
    ("initialize in the final module", MAX_FILE, "theorem lem_mean_max_s1",
     'initialize IO.println "x"\n\ntheorem lem_mean_max_s1', "lem:mean-max"),
    ("eval in the counterexample", CEX_FILE, "theorem prop_square_counterexample",
     f"{WRITE}\n\ntheorem prop_square_counterexample", "prop:square"),
]  # fmt: skip


@pytest.mark.parametrize(("what", "file", "old", "new", "rid"), FORGERIES,
                         ids=[f[0] for f in FORGERIES])  # fmt: skip
def test_a_rejected_file_never_reaches_lean(copy_of, what, file, old, new, rid):
    ws = copy_of("sample-variance")
    edit_text(ws / file, old, new)
    rehash(ws)
    spy, results = _replayed(ws)
    assert str(ws / file) not in spy.files, what
    assert not any("IO.FS.writeFile" in t or "run_cmd" in t or "initialize" in t
                   for t in spy.texts)  # fmt: skip
    forged = results[rid]
    assert forged.rederived == "unfinished" and forged.findings
    assert all(r.status == "not-run" and "not handed to Lean" in r.detail for r in forged.lean)


def test_a_forged_accepted_proof_in_the_records_never_reaches_lean(copy_of):
    """The proof the records hold (from which the checker's modules are composed) carries
    the effect: validate's answer rules reject it, and no module is built from it."""
    ws = copy_of("sample-variance")

    def forge(entry):
        for obligation in entry["work"]["obligations"]:
            if obligation["id"] == "main":
                obligation["proof"] = f"{WRITE}\n\n{obligation['proof']}"

    edit_record(ws, "lem:mean-max", forge)
    rehash(ws)
    spy, results = _replayed(ws)
    assert "lem_mean_max" not in spy.jobs
    assert not any("IO.FS.writeFile" in t for t in spy.texts)
    assert "answer-not-allowed" in {f.rule.value for f in results["lem:mean-max"].findings}


def test_an_untouched_workspace_reaches_lean_for_every_verdict(examples):
    spy, results = _replayed(examples["sample-variance"])
    assert {"lem_mean_max", "lem_mean_square"} <= set(spy.jobs)
    assert any(f.endswith(MAX_FILE) for f in spy.files)
    assert all(not r.findings for r in results.values())

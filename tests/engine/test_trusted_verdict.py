"""The engine's verdict rests on the trusted checker's record (issue #25).

The sample-variance replay is run with its recorded answers, except that the checker's record
for one result is replaced by what the checker records when an earlier proof module planted an
instance that changed the statement's meaning (its proof module imports that module): the
result is not verified, and the reason names the checker's rules. Without a recorded checker
answer, nothing is verified either."""

from __future__ import annotations

import json
import shutil

from paperlint.agents.transcript import unstamped
from paperlint.config import Config
from paperlint.engine.check import CheckRequest, start_check
from paperlint.lean.final import ProcessRun
from paperlint.lean.replay import ReplayVerifier
from paperlint.lean.trusted import conclude
from tests.engine.conftest import example


class Poisoned:
    """The fixture's replay, with the checker's record of `target` showing a planted instance."""

    def __init__(self, inner: ReplayVerifier, target: str | None) -> None:
        self.inner, self.target = inner, target
        self.is_replay = inner.is_replay

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def trusted_check(self, job, *, timeout_s):
        run = self.inner.trusted_check(job, timeout_s=timeout_s)
        if self.target is None:  # no recorded checker answers at all
            from paperlint.lean.trusted import unavailable

            return unavailable(job, "no recording", replay=True)
        if job.request.target != self.target or job.request.mode != "compare" or not run.record:
            return run
        record = dict(run.record)
        record["candidate"] = {**record["candidate"], "type_equal": False}
        planted = {"module": "PaperlintCheck.Proof.r_lem_mean_max_e59c0f6e", "count": 1,
                   "extension": "Lean.Meta.instanceExtension"}  # fmt: skip
        record["entries"] = [*record["entries"], planted]
        ended = ProcessRun(exit_code=0, output="")
        return conclude(job, run.compile, ended, json.dumps(record), replay=True)


def _check(tmp_path, target):
    """The example's check, its Lean answers as `Poisoned` says. A poisoned record changes
    what the auditor is asked; this is about the verdict resting on the checker's record, not
    about the auditor, so the fixture's model answers are unstamped (served as asked)."""
    fixture = example("sample-variance")
    replay = tmp_path / "replay"
    shutil.copytree(fixture / "replay", replay)
    rows = [json.loads(x) for x in (replay / "transcript.jsonl").read_text().splitlines()]
    body = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in unstamped(rows))
    (replay / "transcript.jsonl").write_text(body, encoding="utf-8")
    verifier = Poisoned(ReplayVerifier(replay), target)
    request = CheckRequest(
        paper=fixture / "paper.tex",
        config=Config(),
        workdir=tmp_path / "ws",
        replay=replay,
        verifier=verifier,
        report=False,
    )
    start_check(request)
    data = json.loads((tmp_path / "ws" / "results.json").read_text(encoding="utf-8"))
    return {r["id"]: r for r in data["results"]}


def test_a_poisoned_context_found_by_the_checker_is_not_verified(tmp_path):
    results = _check(tmp_path, "lem_mean_square")
    square = results["lem:mean-square"]
    assert square["verdict"] == "unfinished"
    assert square["unfinished"]["reason"] == "audit_failed"
    detail = square["unfinished"]["detail"]
    assert "trusted checker" in detail and "statement-differs" in detail
    assert "added-instance" in detail
    assert results["lem:mean-max"]["verdict"] == "verified_unconditional"  # untouched


def test_without_a_checker_answer_nothing_is_verified(tmp_path):
    results = _check(tmp_path, None)
    verdicts = {r["verdict"] for r in results.values() if r["verdict_bearing"]}
    assert "verified_unconditional" not in verdicts and "verified_conditional" not in verdicts
    assert {r["unfinished"]["reason"] for r in results.values() if r.get("unfinished")} == {
        "lean_unavailable"
    }

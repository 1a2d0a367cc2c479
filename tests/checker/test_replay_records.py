"""Recorded checker answers: written by the recorder, served by the replay verifier
for exactly the job they judged (the request and every module's text), and nothing else."""

from __future__ import annotations

from paperlint.lean.final import ProcessRun
from paperlint.lean.modules import CheckJob, LeanModule
from paperlint.lean.replay import LeanRecorder, ReplayVerifier
from paperlint.lean.trusted import CompileRun, conclude, recorded_exchange
from paperlint.lean.verifier import FailureCode, Outcome
from paperlint.records.modules import check_job
from tests.checker.support import passing_record, result


class LiveStandIn:
    """Plays a live Lean edge whose checker writes the passing record (labelled stand-in)."""

    is_replay = False

    def trusted_check(self, job: CheckJob, *, timeout_s: float):
        import json

        record = passing_record(
            target=job.request.target,
            reference_module=job.request.reference_module,
            candidate_module=job.request.candidate_module,
        )
        record["candidate"]["module"] = job.request.candidate_module  # type: ignore[index]
        compiles = [CompileRun(module=m.name, exit_code=0) for m in job.modules]
        return conclude(job, compiles, ProcessRun(exit_code=0, output=""), json.dumps(record))

    def close(self):
        pass


def _record(job: CheckJob, folder):
    """The live run, kept the way the live final checker keeps it (`recorded_exchange`)."""
    run = LiveStandIn().trusted_check(job, timeout_s=5)
    LeanRecorder(folder, toolchain=None, mathlib_rev=None).write(recorded_exchange(job, run))
    return run


def _job() -> CheckJob:
    records = {"lem:b": result("lem:b", "lem_b", "theorem lem_b : True := sorry",
                               proofs=["theorem lem_b : True := trivial"])}  # fmt: skip
    job = check_job("import Mathlib", records, {"lem:b": []}, "lem:b", mode="compare")
    assert job is not None
    return job


def test_a_recorded_answer_replays_for_exactly_its_job(tmp_path):
    job = _job()
    recorded = _record(job, tmp_path)
    assert recorded.outcome is Outcome.ACCEPTED and not recorded.replay
    served = ReplayVerifier(tmp_path).trusted_check(job, timeout_s=5)
    assert served.outcome is Outcome.ACCEPTED and served.replay
    assert served.record == recorded.record and served.key == job.key()


def test_another_module_text_has_no_recorded_answer(tmp_path):
    job = _job()
    _record(job, tmp_path)
    changed = [*job.modules[:-1], LeanModule(job.modules[-1].name, job.modules[-1].text + "\n")]
    other = CheckJob(request=job.request, modules=tuple(changed))
    served = ReplayVerifier(tmp_path).trusted_check(other, timeout_s=5)
    assert served.outcome is Outcome.UNAVAILABLE and served.code is FailureCode.NO_RECORDING
    assert served.record is None

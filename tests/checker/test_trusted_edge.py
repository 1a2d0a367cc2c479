"""The checker half's process handling, with small labelled stand-in programs.

No checker program can be compiled here (it imports `Lean`, whose library is absent), so
these stand-ins play it: one writes a record, others sleep past the limit, write garbage, exit
non-zero, escape their folder, or are missing. Each must end as the edge says: only a record
that parses and passes `judge` accepts. The compile step is a stand-in too (it writes a dummy
`.olean`); tests/lean_oracle/test_checker_build.py builds the same layout with real Lean.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from paperlint.lean.sandbox import sandbox_status
from paperlint.lean.trusted import Limits, Tools, TrustedChecker, judgement, run_job
from paperlint.lean.verifier import FailureCode, Outcome
from paperlint.records.modules import check_job
from tests.checker.support import passing_record, result

# The interpreter itself (not a venv or pyenv shim), and its installation readable in the sandbox.
PYTHON = os.path.realpath(sys.executable)
PYTHON_HOME = Path(sys.base_prefix)
FAKE_LEAN = ("/bin/sh", "-c", 'printf "stand-in olean" > "$4"', "sh")
STAND_IN = '''\
"""A stand-in for the checker program (tests only): {what}."""
import json, sys, time
request, out = sys.argv[1], sys.argv[2]
asked = json.load(open(request))
{body}
'''
WRITE = """\
record = json.load(open({template!r}))
record.update(mode=asked["mode"], target=asked["target"],
              reference_module=asked["reference_module"],
              candidate_module=asked["candidate_module"])
record["candidate"]["module"] = asked["candidate_module"]
json.dump(record, open(out, "w"))
"""


def _job():
    records = {
        "lem:b": result("lem:b", "lem_b", "theorem lem_b : True := sorry",
                        proofs=["theorem lem_b : True := trivial"]),
    }  # fmt: skip
    job = check_job("import Mathlib", records, {"lem:b": []}, "lem:b", mode="compare")
    assert job is not None
    return job


def _stand_in(tmp: Path, what: str, body: str, record: dict | None = None) -> tuple[str, ...]:
    template = tmp / "template.json"
    template.write_text(json.dumps(record or passing_record()), encoding="utf-8")
    script = tmp / f"{what.split()[0]}.py"
    script.write_text(
        STAND_IN.format(what=what, body=body.format(template=str(template))), encoding="utf-8"
    )
    return (PYTHON, str(script))


def _run(tmp: Path, checker: tuple[str, ...] | None, *, timeout: float = 60, mode="auto"):
    tools = Tools(lean=FAKE_LEAN, checker=checker, cwd=tmp, readonly=(tmp, PYTHON_HOME))
    return run_job(_job(), tools, Limits(timeout, None, mode), tmp / "scratch")


def test_a_record_that_passes_accepts(tmp_path):
    run = _run(tmp_path, _stand_in(tmp_path, "writes a passing record", WRITE))
    assert run.outcome is Outcome.ACCEPTED, run.hint
    assert run.key == _job().key() and run.record is not None
    verdict = judgement(run)
    assert verdict is not None and verdict.passed
    assert [c.exit_code for c in run.compile] == [0, 0]


def test_a_record_with_a_planted_instance_rejects_naming_it(tmp_path):
    planted = WRITE + (
        "record = json.load(open(out))\n"
        'record["entries"] = [dict(module=asked["candidate_module"], '
        'extension="Lean.Meta.instanceExtension", count=1)]\n'
        'json.dump(record, open(out, "w"))\n'
    )
    run = _run(tmp_path, _stand_in(tmp_path, "writes an instance entry", planted))
    assert run.outcome is Outcome.REJECTED and run.code is FailureCode.REFUSED
    assert run.hint and "added-instance" in run.hint and "instanceExtension" in run.hint


@pytest.mark.parametrize(
    ("what", "body", "outcome", "hint"),
    [
        ("sleeps past the limit", "time.sleep(30)", Outcome.TIMEOUT, "out of time"),
        ("writes garbage", 'open(out, "w").write("{{not json")', Outcome.REJECTED, "not JSON"),
        ("exits non-zero", "sys.exit(3)", Outcome.REJECTED, "exited with 3"),
        ("writes nothing", "pass", Outcome.REJECTED, "wrote no record"),
        ("writes a record then fails", WRITE + "sys.exit(1)", Outcome.REJECTED, "exited with 1"),
        ("writes an extra field", WRITE + 'r = json.load(open(out)); r["verdict"] = "ok"; '
         'json.dump(r, open(out, "w"))', Outcome.REJECTED, "malformed at verdict"),
    ],
)  # fmt: skip
def test_a_checker_that_misbehaves_never_accepts(tmp_path, what, body, outcome, hint):
    run = _run(tmp_path, _stand_in(tmp_path, what, body), timeout=3)
    assert run.outcome is outcome and run.hint and hint in run.hint, run.hint
    assert run.record is None or outcome is not Outcome.ACCEPTED


def test_a_missing_checker_is_unavailable(tmp_path):
    run = _run(tmp_path, (str(tmp_path / "no-such-checker"),))
    assert run.outcome is Outcome.UNAVAILABLE and run.code is FailureCode.UNAVAILABLE
    not_built = _run(tmp_path, None)
    assert not_built.outcome is Outcome.UNAVAILABLE and "paperlint setup" in (not_built.hint or "")


@pytest.mark.skipif(not sandbox_status().active, reason="bubblewrap cannot confine here")
def test_a_confined_checker_cannot_touch_the_built_modules(tmp_path):
    body = (
        "import glob, os\nhits = glob.glob(os.environ['LEAN_PATH'] + '/**/*.olean', "
        "recursive=True)\ntry:\n    open(hits[0], 'w').write('forged')\n    open(out, 'w')"
        ".write('escaped')\nexcept OSError as e:\n    open(out, 'w').write('blocked: ' + str(e))"
    )
    run = _run(tmp_path, _stand_in(tmp_path, "tries to overwrite a built module", body),
               mode="required")  # fmt: skip
    assert run.outcome is Outcome.REJECTED and "not JSON" in (run.hint or "")


def test_the_trusted_checker_cleans_its_scratch(tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    tools = Tools(lean=FAKE_LEAN, checker=_stand_in(tmp_path, "writes a record", WRITE),
                  cwd=tmp_path, readonly=(tmp_path, PYTHON_HOME))  # fmt: skip
    run = TrustedChecker(tools, memory_mb=None).trusted_check(_job(), timeout_s=60)
    assert run.outcome is Outcome.ACCEPTED, run.hint
    assert list((tmp_path / "tmp").iterdir()) == []

"""The real subprocess path of the final check, with a fake `lake` on PATH (no Lean needed).

The fake lake logs to files and reads FAKE_* variables, which the sandbox (rightly) forbids,
so these run unconfined (`sandbox="off"`); test_sandbox.py runs the confined path."""

import json
import os
import sys
import time
from pathlib import Path

import pytest

from paperlint.lean.final import FinalChecker
from paperlint.lean.pins import locate
from paperlint.lean.verifier import FailureCode, Outcome

FAKE_LAKE = """#!{python}
# `lake env lean --json …` as Lean 4.35 answers it: one JSON object per message (the fields
# the final check reads; tests/lean_oracle/test_output.py reads the real Lean's).
import json, os, re, subprocess, sys, time
assert sys.argv[1:5] == ["env", "lean", "--json", "-DElab.async=false"], sys.argv
path = sys.argv[5]
text = open(path, encoding="utf-8").read()
with open(os.environ["FAKE_LEAN_LOG"], "a") as log:
    log.write(os.getcwd() + " " + path + "\\n")
if os.environ.get("FAKE_LEAN_SLEEP"):
    child = subprocess.Popen(["sleep", "60"])
    open(os.environ["FAKE_LEAN_PIDFILE"], "w").write(str(child.pid))
    time.sleep(float(os.environ["FAKE_LEAN_SLEEP"]))

def message(severity, line, column, data):
    print(json.dumps({{"severity": severity, "pos": {{"line": line, "column": column}},
                      "endPos": None, "fileName": path, "data": data, "caption": "",
                      "kind": "[anonymous]", "isSilent": False, "keepFullRange": False}}))

for severity, line, column, data in json.loads(os.environ.get("FAKE_LEAN_MESSAGES", "[]")):
    message(severity, line, column, data)
axioms = os.environ.get("FAKE_LEAN_AXIOMS", "propext, Classical.choice, Quot.sound")
for number, line in enumerate(text.splitlines(), start=1):
    m = re.match(r'#check \\("(PAPERLINT_AXIOMS_\\w+)" : String\\)', line)
    if m:
        message("information", number, 0, '"' + m[1] + '" : String')
    m = re.match(r"#print axioms (\\S+)", line)
    if m:
        name = m[1].removeprefix("_root_.")  # Lean answers with the full name
        message("information", number, 0, f"'{{name}}' depends on axioms: [{{axioms}}]"
                if axioms else f"'{{name}}' does not depend on any axioms")
sys.exit(int(os.environ.get("FAKE_LEAN_EXIT", "0")))
"""

FILE = "import Mathlib\n\nnamespace Paper\n\ntheorem t : True := trivial\n\nend Paper\n"


@pytest.fixture
def env(tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    lake = bin_dir / "lake"
    lake.write_text(FAKE_LAKE.format(python=sys.executable), encoding="utf-8")
    lake.chmod(0o755)
    project = tmp_path / "project"
    project.mkdir()
    (project / "lean-toolchain").write_text("leanprover/lean4:v4.35.0\n")
    (project / "lake-manifest.json").write_text(
        json.dumps({"packages": [{"name": "mathlib", "rev": "abc123"}]})
    )
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("ELAN_HOME", str(tmp_path / "no-elan"))
    monkeypatch.delenv("PAPERLINT_LAKE", raising=False)
    monkeypatch.setenv("FAKE_LEAN_LOG", str(tmp_path / "calls.log"))
    file = tmp_path / "work" / "Result.lean"
    file.parent.mkdir()
    file.write_text(FILE, encoding="utf-8")
    paths = locate(project)
    assert paths.lake == str(lake)  # found on PATH
    return paths, file, tmp_path


def test_clean_file_and_standard_axioms(env):
    paths, file, tmp = env
    result = FinalChecker(paths, sandbox="off").final_check(file, ["Paper.t"], timeout_s=30)
    assert result.clean and result.outcome is Outcome.ACCEPTED and not result.replay
    assert result.axioms == {"Paper.t": ("propext", "Classical.choice", "Quot.sound")}
    assert result.command == (
        paths.lake, "env", "lean", "--json", "-DElab.async=false", str(file.resolve())
    )  # fmt: skip
    assert result.toolchain == "leanprover/lean4:v4.35.0" and result.mathlib_rev == "abc123"
    calls = (tmp / "calls.log").read_text().splitlines()
    assert len(calls) == 2 and all(c.startswith(str(paths.project)) for c in calls)
    assert calls[1].split()[1] != str(file.resolve())  # the axioms ran on a copy
    assert file.read_text(encoding="utf-8") == FILE  # the original is untouched


def test_errors_and_exit_code(env, monkeypatch):
    paths, file, _ = env
    monkeypatch.setenv("FAKE_LEAN_EXIT", "1")
    goals = [["error", 5, 21, "unsolved goals\nx : ℝ\n⊢ 0 < x"]]
    monkeypatch.setenv("FAKE_LEAN_MESSAGES", json.dumps(goals))
    result = FinalChecker(paths, sandbox="off").final_check(file, ["Paper.t"], timeout_s=30)
    assert result.outcome is Outcome.REJECTED and result.code is FailureCode.LEAN_ERROR
    assert result.exit_code == 1 and result.errors == ("unsolved goals\nx : ℝ\n⊢ 0 < x",)
    assert not result.clean


def test_exit_code_without_error_text_is_still_an_error(env, monkeypatch):
    paths, file, _ = env
    monkeypatch.setenv("FAKE_LEAN_EXIT", "134")
    result = FinalChecker(paths, sandbox="off").final_check(file, [], timeout_s=30)
    assert result.outcome is Outcome.REJECTED and "134" in result.errors[0]


def test_sorry_warning_with_exit_zero(env, monkeypatch):
    paths, file, _ = env
    sorry = [["warning", 5, 8, "declaration uses `sorry`"]]
    monkeypatch.setenv("FAKE_LEAN_MESSAGES", json.dumps(sorry))
    result = FinalChecker(paths, sandbox="off").final_check(file, ["Paper.t"], timeout_s=30)
    assert result.exit_code == 0 and result.has_sorry_warning
    assert result.code is FailureCode.SORRY and not result.clean


def test_custom_and_missing_axioms(env, monkeypatch):
    paths, file, _ = env
    monkeypatch.setenv("FAKE_LEAN_AXIOMS", "propext, Paper.cheat")
    result = FinalChecker(paths, sandbox="off").final_check(file, ["Paper.t"], timeout_s=30)
    assert result.code is FailureCode.DISALLOWED_AXIOMS and "Paper.cheat" in (result.hint or "")
    monkeypatch.setenv("FAKE_LEAN_AXIOMS", "")
    result = FinalChecker(paths, sandbox="off").final_check(file, ["Paper.t"], timeout_s=30)
    assert result.clean and result.axioms == {"Paper.t": ()}


def test_timeout_kills_the_process_group(env, monkeypatch):
    paths, file, tmp = env
    pidfile = tmp / "child.pid"
    monkeypatch.setenv("FAKE_LEAN_SLEEP", "30")
    monkeypatch.setenv("FAKE_LEAN_PIDFILE", str(pidfile))
    start = time.monotonic()
    result = FinalChecker(paths, sandbox="off").final_check(file, ["Paper.t"], timeout_s=1.5)
    assert time.monotonic() - start < 10
    assert result.outcome is Outcome.TIMEOUT and result.code is FailureCode.TIMEOUT
    child = int(pidfile.read_text())
    for _ in range(50):  # the grandchild `sleep` went with the group
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        pytest.fail("the grandchild survived the timeout")


def test_missing_lake_is_unavailable(env):
    paths, file, _ = env
    missing = paths.__class__(
        project=paths.project, cache=paths.cache, repl_dir=paths.repl_dir, lake="/nonexistent/lake"
    )
    result = FinalChecker(missing, sandbox="off").final_check(file, ["Paper.t"], timeout_s=5)
    assert result.outcome is Outcome.UNAVAILABLE and "doctor" in (result.hint or "")


def test_unreadable_file(env):
    paths, _, tmp = env
    result = FinalChecker(paths, sandbox="off").final_check(tmp / "nope.lean", [], timeout_s=5)
    assert result.outcome is Outcome.UNAVAILABLE


def test_recorded_final_replays_identically(env):
    from paperlint.lean.replay import LeanRecorder, ReplayVerifier
    from paperlint.lean.warm import WarmSettings, WarmVerifier
    from tests.lean_edge.test_warm import FakeBackend

    paths, file, tmp = env
    sink = LeanRecorder(tmp / "rec", toolchain=None, mathlib_rev=None).write
    recorder = WarmVerifier(WarmSettings(paths=paths), backend=FakeBackend(), recorder=sink)
    first = recorder.final_check(file, ["Paper.t"], timeout_s=30)
    again = ReplayVerifier(tmp / "rec").final_check(file, ["Paper.t"], timeout_s=30)
    assert again.replay and again.clean == first.clean and again.axioms == first.axioms
    assert Path(tmp / "rec" / "lean.jsonl").read_text().count('"kind": "final"') == 1

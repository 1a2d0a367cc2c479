"""The second kernel: lean4checker over the compiled module, recorded in the final check.

A fake `lake` (no Lean here) answers the build, the axiom queries, the `-o` compile and the
checker run; a fake checker exits 0 or 1. A failing second kernel rejects the check."""

from __future__ import annotations

import json
import sys

import pytest

from paperlint.lean import second_kernel
from paperlint.lean.final import FinalChecker
from paperlint.lean.pins import LeanPaths
from paperlint.lean.replay import ReplayVerifier, key_for_final
from paperlint.lean.verifier import Outcome

FAKE_LAKE = """#!{python}
import os, re, subprocess, sys
args = sys.argv[1:]
assert args[0] == "env", args
if args[1] != "lean":  # the checker: lake env <checker> Module
    sys.exit(subprocess.run(args[1:]).returncode)
args = [a for a in args if not a.startswith("-D")]  # -DElab.async=false, as the warm check
if args[2] == "-o":
    open(args[3], "w").write("olean")
    sys.exit(0)
text = open(args[2], encoding="utf-8").read()
for line in text.splitlines():
    m = re.match(r'#check \\("(PAPERLINT_AXIOMS_\\w+)" : String\\)', line)
    if m:
        print('"' + m[1] + '" : String')
    m = re.match(r"#print axioms (\\S+)", line)
    if m:
        print(f"'{{m[1]}}' depends on axioms: [propext]")
"""


@pytest.fixture
def setup(tmp_path, monkeypatch):
    lake = tmp_path / "lake"
    lake.write_text(FAKE_LAKE.format(python=sys.executable))
    lake.chmod(0o755)
    checker = tmp_path / "lean4checker"
    checker.write_text("#!/bin/sh\necho checking $1\nexit ${FAKE_CHECKER_EXIT:-0}\n")
    checker.chmod(0o755)
    monkeypatch.setenv(second_kernel.ENV_OVERRIDE, str(checker))
    project = tmp_path / "project"
    project.mkdir()
    (project / "lean-toolchain").write_text("leanprover/lean4:v4.35.0\n")
    file = tmp_path / "work" / "Result.lean"
    file.parent.mkdir()
    file.write_text("theorem t : True := trivial\n")
    paths = LeanPaths(project=project, cache=tmp_path, repl_dir=tmp_path, lake=str(lake))
    return paths, file


def test_a_passing_second_kernel_is_recorded(setup):
    paths, file = setup
    check = FinalChecker(paths, sandbox="off").final_check(file, ["t"], timeout_s=30)
    assert check.clean, check
    assert check.second_kernel is not None and check.second_kernel.ok
    assert check.second_kernel.tool == "lean4checker"
    assert "checking Result" in check.second_kernel.output


def test_a_failing_second_kernel_rejects_the_check(setup, monkeypatch):
    paths, file = setup
    monkeypatch.setenv("FAKE_CHECKER_EXIT", "1")
    check = FinalChecker(paths, sandbox="off").final_check(file, ["t"], timeout_s=30)
    assert check.outcome is Outcome.REJECTED and not check.clean
    assert check.second_kernel is not None and not check.second_kernel.ok
    assert "lean4checker" in (check.hint or "")


def test_no_checker_installed_means_no_claim(setup, monkeypatch, tmp_path):
    paths, file = setup
    monkeypatch.setenv(second_kernel.ENV_OVERRIDE, str(tmp_path / "absent"))
    check = FinalChecker(paths, sandbox="off").final_check(file, ["t"], timeout_s=30)
    assert check.clean and check.second_kernel is None


def test_a_recorded_second_kernel_replays(setup, tmp_path):
    """Hand-written recording, shaped like what LeanRecorder writes."""
    _, file = setup
    import hashlib

    sha = hashlib.sha256(file.read_bytes()).hexdigest()
    axioms = "'t' depends on axioms: [propext]"
    entry = {
        "kind": "final",
        "key": key_for_final(sha, ["t"]),
        "request": {"file_sha256": sha, "names": ["t"]},
        "response": {
            "build": {"exit_code": 0, "output": ""},
            "axioms": {"exit_code": 0, "output": _marked(axioms, sha)},
            "second_kernel": {"tool": "lean4checker", "exit_code": 1, "ok": False},
        },
        "note": "hand-written",
    }
    folder = tmp_path / "rec"
    folder.mkdir()
    (folder / "lean.jsonl").write_text(json.dumps(entry) + "\n")
    check = ReplayVerifier(folder).final_check(file, ["t"], timeout_s=5)
    assert check.second_kernel is not None and not check.second_kernel.ok
    assert check.outcome is Outcome.REJECTED


def _marked(answer: str, sha: str) -> str:
    from paperlint.lean.messages import marker_id

    mid = marker_id("t", sha)
    return (
        f'"PAPERLINT_AXIOMS_BEGIN_{mid}" : String\n{answer}\n"PAPERLINT_AXIOMS_END_{mid}" : String'
    )


def test_tag_for_the_toolchain():
    assert second_kernel.tag_for("leanprover/lean4:v4.35.0") == "v4.35.0"
    assert second_kernel.tag_for(None) is None

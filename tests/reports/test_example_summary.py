"""`./dev example`'s last line (scripts/example_summary.py): the verdicts in words, compared
with the example's answer key, instead of "paperlint exited 1 (0 verified, 1 issue ...)"."""

import json
import shutil
import subprocess
import sys

from tests.conftest import ROOT

SCRIPT = ROOT / "scripts" / "example_summary.py"
FIXTURE = ROOT / "fixtures" / "sample-variance"


def _summary(workdir):
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(workdir), str(FIXTURE)],
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_example_says_its_verdicts_match_the_answer_key(example):
    done = _summary(example)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == (
        "The example ran as its answer key says: 4 results checked, 1 verified "
        "unconditionally, 1 verified conditionally, 2 with an issue recorded. "
        f"Report: {example / 'report' / 'report.html'}\n"
    )


def test_a_verdict_the_key_does_not_expect_is_named_and_fails(example, tmp_path):
    work = tmp_path / "ws"
    shutil.copytree(example, work)
    results = json.loads((work / "results.json").read_text())
    for record in results["results"]:
        if record["id"] == "prop:square":
            record.update(verdict="unfinished", issue=None)
    (work / "results.json").write_text(json.dumps(results))
    done = _summary(work)
    assert done.returncode == 1
    assert "differ from its answer key (prop:square: expected issue ERROR)" in done.stdout
    assert "1 with an issue recorded, 1 unfinished" in done.stdout

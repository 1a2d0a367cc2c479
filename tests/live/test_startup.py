"""`paperlint check` on the example says it started within 2 s: litellm (seconds to import)
and the engine are imported after the first line is printed."""

import os
import select
import subprocess
import sys
import time
from pathlib import Path

from tests.engine.conftest import example

FIRST_LINE_S = 2.0


def test_check_of_the_example_starts_printing_within_2_s(tmp_path):
    fixture = example("sample-variance")
    argv = [sys.executable, "-m", "paperlint", "check", str(fixture / "paper.tex")]
    argv += ["--replay", str(fixture / "replay"), "--workdir", str(tmp_path / "ws")]
    started = time.monotonic()
    proc = subprocess.Popen(
        argv, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, cwd=Path(__file__).parents[2]
    )
    try:
        assert proc.stderr is not None
        ready, _, _ = select.select([proc.stderr], [], [], 10)
        line = os.read(proc.stderr.fileno(), 200).decode() if ready else ""
        elapsed = time.monotonic() - started
    finally:
        proc.kill()  # only the process this test started
        proc.wait(10)
        if proc.stderr is not None:
            proc.stderr.close()
    assert line.startswith("paperlint: checking"), line
    assert elapsed < FIRST_LINE_S, f"first line after {elapsed:.2f} s"

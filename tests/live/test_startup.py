"""`paperlint check` on the example says it started before anything slow is imported:
litellm (seconds to import) and the engine are imported after the first line is printed.

Read from the process itself (`python -X importtime` writes each import to stderr as it
finishes, in order with what the program prints there), so the test holds on a loaded
machine; the wall-clock figure is a sanity bound only (2 s on a quiet machine)."""

import os
import select
import subprocess
import sys
import time
from pathlib import Path

from tests.engine.conftest import example

FIRST_LINE_S = 2.0  # on a quiet machine
LOADED_BOUND_S = 15.0  # what the test asserts: start-up order is the real check
SLOW = ("litellm", "paperlint.engine.check", "paperlint.engine.run")


def test_check_of_the_example_prints_its_first_line_before_the_slow_imports(tmp_path):
    fixture = example("sample-variance")
    argv = [sys.executable, "-X", "importtime", "-m", "paperlint", "check"]
    argv += [str(fixture / "paper.tex"), "--replay", str(fixture / "replay")]
    argv += ["--workdir", str(tmp_path / "ws")]
    started = time.monotonic()
    proc = subprocess.Popen(
        argv, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, cwd=Path(__file__).parents[2]
    )
    seen = b""
    try:
        assert proc.stderr is not None
        while b"paperlint: checking" not in seen and time.monotonic() - started < 60:
            ready, _, _ = select.select([proc.stderr], [], [], 1)
            chunk = os.read(proc.stderr.fileno(), 65536) if ready else b""
            if ready and not chunk:
                break
            seen += chunk
        elapsed = time.monotonic() - started
    finally:
        proc.kill()  # only the process this test started
        proc.wait(10)
        if proc.stderr is not None:
            proc.stderr.close()
    text = seen.decode(errors="replace")
    assert "paperlint: checking" in text, text[-2000:]
    before = text.split("paperlint: checking", 1)[0]
    imported = {line.rsplit("|", 1)[-1].strip() for line in before.splitlines() if "|" in line}
    assert "paperlint" in imported  # -X importtime did report (the check is not vacuous)
    slow = sorted(name for name in imported if name.startswith(SLOW))
    assert not slow, f"imported before the first line: {slow}"
    assert elapsed < LOADED_BOUND_S, f"first line after {elapsed:.2f} s"

"""^C at `--jobs 4` while a request hangs (issue #29), in a real `paperlint` process against
the loopback server: the first SIGINT stops planning, abandons the hung request and ends the
process within seconds, saying how to resume (before: no message, exit after 62 s, up to ~30
min with the default timeouts); a second one ends it at once; `resume` reaches the answer key
and never asks again what was answered before the interrupt."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from paperlint.agents.transcript import TranscriptKey
from paperlint.cli.root import run
from tests.live.conftest import ANSWER_KEY, REPLAY, check_argv, verdicts, write_config
from tests.live.loopback import Fault, LoopbackProvider, Seen

HANG_S = 60.0


def hangs(key: TranscriptKey | None) -> bool:
    return key is not None and key.task == "auditor"


def start(tmp_path: Path, server: LoopbackProvider) -> subprocess.Popen[str]:
    config = write_config(tmp_path, server.url, timeout_s=HANG_S * 2)
    argv = check_argv(tmp_path, config)
    argv[argv.index("--jobs") + 1] = "4"
    env = {**os.environ, "LOOPBACK_KEY": "sk-loopback-test-key", "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "paperlint", *argv],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_for_hang(server: LoopbackProvider, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 60
    while not any(hangs(s.key) for s in server.seen):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the hanging request never came"
        time.sleep(0.05)
    time.sleep(0.3)  # the request is in flight, the others run on


def answered(seen: list[Seen]) -> list[TranscriptKey]:
    return [s.key for s in seen if s.status == 200 and s.key is not None]


@pytest.mark.parametrize("presses", [1, 2])
def test_ctrl_c_with_a_hung_request_ends_promptly_and_resume_loses_nothing(
    tmp_path, key_env, presses
):
    hung = [True]

    def faults(number: int, key: TranscriptKey | None) -> Fault | None:
        return Fault(delay_s=HANG_S) if hung[0] and hangs(key) else None

    with LoopbackProvider(REPLAY / "transcript.jsonl", faults=faults, lifetime_s=300) as server:
        process = start(tmp_path, server)
        wait_for_hang(server, process)
        first = time.monotonic()
        process.send_signal(signal.SIGINT)
        if presses == 2:
            time.sleep(0.5)
            second = time.monotonic()
            process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
        ended = time.monotonic()
        assert process.returncode == 130, err
        if presses == 2:
            assert ended - second <= 5.0, err
            assert "interrupted again: exiting now" in err
        else:
            assert ended - first <= 10.0, err
            assert "interrupted: resume with `paperlint resume" in err
        before = answered(server.seen)
        hung[0] = False
        server.seen.clear()
        workdir = tmp_path / "ws"
        assert run(["resume", str(workdir), "--jobs", "4"]) == 1
        again = answered(server.seen)
    assert verdicts(workdir) == ANSWER_KEY
    if presses == 1:
        # every answer committed before the interrupt is kept: none is asked twice
        assert set(before).isdisjoint(again), set(before) & set(again)
    assert run(["validate", str(workdir)]) == 0

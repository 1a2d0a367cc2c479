"""A warm fork server for tests that run the CLI in a child process many times.

`run_cli_forked` used to fork the pytest process itself. Each child then paid for every
lazy import of the model edge (litellm's completion path, its tokenizer) on its first model
call, about two thirds of a replay run's time, once per child: the crash sweep forks a few
hundred. Here one server process is forked from pytest, warms itself by running a replay
check once, and forks each child from that warm state. The children run the same CLI code
with the same environment as before; pytest's own process is never used to run a check,
so no test sees state left by the warm-up.

A child dies however the CLI makes it die (`os._exit(77)` at a failpoint, like a power cut);
the server reports its exit code and what it printed.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import multiprocessing
import os
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

TIMEOUT_S = 120


@dataclass(frozen=True)
class ChildRun:
    code: int
    output: str  # stdout and stderr, interleaved as written


def _child(argv: list[str], env: dict[str, str], log: int) -> None:
    os.dup2(log, 1)
    os.dup2(log, 2)
    sys.stdout = io.TextIOWrapper(os.fdopen(1, "wb", closefd=False), write_through=True)
    sys.stderr = io.TextIOWrapper(os.fdopen(2, "wb", closefd=False), write_through=True)
    os.environ.update(env)
    code = 3
    try:
        from paperlint.cli.root import run

        code = run(argv)
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _stop_coverage() -> None:
    # Under `--cov` the server inherits pytest's tracer; its children die by `os._exit`, so
    # their data would never be saved, and tracing them only makes every child slower.
    try:
        import coverage
    except ImportError:
        return
    current = coverage.Coverage.current()
    if current is not None:
        current.stop()


def _serve(conn: Connection, warm: Callable[[], None]) -> None:
    _stop_coverage()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        warm()
    while True:
        request = conn.recv()
        if request is None:
            return
        argv, env = request
        with tempfile.TemporaryFile() as log:
            pid = os.fork()
            if pid == 0:
                conn.close()
                _child(argv, env, log.fileno())
            _, status = os.waitpid(pid, 0)
            log.seek(0)
            output = log.read().decode("utf-8", "replace")
        conn.send(ChildRun(os.waitstatus_to_exitcode(status), output))


class ForkServer:
    def __init__(self, warm: Callable[[], None]) -> None:
        ctx = multiprocessing.get_context("fork")
        self._conn, theirs = ctx.Pipe()
        self._proc = ctx.Process(target=_serve, args=(theirs, warm), daemon=True)
        self._proc.start()
        theirs.close()

    def run(self, argv: list[str], env: dict[str, str]) -> ChildRun:
        self._conn.send((argv, env))
        if not self._conn.poll(TIMEOUT_S):
            raise AssertionError(f"the child did not finish within {TIMEOUT_S} s: {argv}")
        answer: Any = self._conn.recv()
        assert isinstance(answer, ChildRun)
        return answer

    def close(self) -> None:
        if self._proc.is_alive():
            self._conn.send(None)
            self._proc.join(10)
        self._conn.close()


def warm_replay_check() -> None:
    """Run one replay check of the smallest example in the server, so its lazy imports load."""
    from paperlint.cli import root
    from paperlint.config import Config
    from paperlint.engine.check import CheckRequest, start_check

    root._register_commands()

    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "proportions"
    with tempfile.TemporaryDirectory(prefix="paperlint-warm-") as tmp:
        start_check(
            CheckRequest(
                paper=fixture / "paper.tex",
                config=Config(),
                workdir=Path(tmp) / "ws",
                replay=fixture / "replay",
                report=True,
            )
        )


_server: list[ForkServer] = []


def server() -> ForkServer:
    """The session's one server, started on first use and stopped when pytest exits."""
    if not _server:
        _server.append(ForkServer(warm_replay_check))
        atexit.register(_server[0].close)
    return _server[0]

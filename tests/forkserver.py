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
import gc
import io
import logging
import multiprocessing
import os
import sys
import tempfile
import threading
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


def _child(commands: list[tuple[list[str], dict[str, str]]], logs: list[int], codes: int) -> None:
    """Run each command in turn in this one process, each printing to its own log; each exit
    code is written to `codes` as it is known. A failpoint's `os._exit` ends them all."""
    sys.stdout = io.TextIOWrapper(os.fdopen(1, "wb", closefd=False), write_through=True)
    sys.stderr = io.TextIOWrapper(os.fdopen(2, "wb", closefd=False), write_through=True)
    code = 3
    try:
        from paperlint.cli.root import run

        for (argv, env), log in zip(commands, logs, strict=True):
            os.dup2(log, 1)
            os.dup2(log, 2)
            saved = dict(os.environ)
            os.environ.update(env)
            try:
                code = run(argv)
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os.environ.clear()
                os.environ.update(saved)
            os.write(codes, f"{code}\n".encode())
    finally:
        os._exit(code)


def _stop_coverage() -> None:
    # Under `--cov` the server inherits pytest's tracer; its children die by `os._exit`, so
    # their data would never be saved, and tracing them only makes every child slower. A
    # pytest-xdist worker runs two (pytest-cov's own, and the one its start-up hook began):
    # stopping the current one makes the other current again, so stop until none is.
    try:
        import coverage
    except ImportError:
        return
    for _ in range(16):
        current = coverage.Coverage.current()
        if current is None:
            break
        current.stop()
    sys.settrace(None)
    threading.settrace(None)  # type: ignore[arg-type]


def _serve(conn: Connection, warm: Callable[[], None]) -> None:
    _stop_coverage()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        warm()
    # Every object the warm-up left is moved out of the collector's reach: a child's garbage
    # collections then never write to (and so copy) the pages it shares with the server.
    gc.collect()
    gc.freeze()
    while True:
        request = conn.recv()
        if request is None:
            return
        conn.send(_fork(conn, request))


def _fork(conn: Connection, commands: list[tuple[list[str], dict[str, str]]]) -> list[ChildRun]:
    """One child runs `commands`; what each exited with and printed (the command the child
    died in gets the child's exit status; none after it ran)."""
    with contextlib.ExitStack() as stack:
        logs = [stack.enter_context(tempfile.TemporaryFile()) for _ in commands]
        read_codes, write_codes = os.pipe()
        pid = os.fork()
        if pid == 0:
            conn.close()
            os.close(read_codes)
            _child(commands, [log.fileno() for log in logs], write_codes)
        os.close(write_codes)
        _, status = os.waitpid(pid, 0)
        with os.fdopen(read_codes, "rb") as pipe:
            codes = [int(line) for line in pipe.read().split()]
        codes.append(os.waitstatus_to_exitcode(status))  # the code of the one it died in
        runs = []
        for code, log in zip(codes, logs, strict=False):
            log.seek(0)
            runs.append(ChildRun(code, log.read().decode("utf-8", "replace")))
        return runs


class ForkServer:
    def __init__(self, warm: Callable[[], None]) -> None:
        ctx = multiprocessing.get_context("fork")
        self._conn, theirs = ctx.Pipe()
        self._proc = ctx.Process(target=_serve, args=(theirs, warm), daemon=True)
        self._proc.start()
        theirs.close()

    def run(self, argv: list[str], env: dict[str, str]) -> ChildRun:
        return self.run_in_turn([(argv, env)])[0]

    def run_in_turn(self, commands: list[tuple[list[str], dict[str, str]]]) -> list[ChildRun]:
        """The commands one after the other in one child (one fork instead of one each): a
        run for each command the child finished, and for the one it died in."""
        timeout = TIMEOUT_S * len(commands)
        self._conn.send(commands)
        if not self._conn.poll(timeout):
            raise AssertionError(f"the child did not finish within {timeout} s: {commands}")
        answer: Any = self._conn.recv()
        assert isinstance(answer, list) and all(isinstance(run, ChildRun) for run in answer)
        return answer

    def close(self) -> None:
        if self._proc.is_alive():
            self._conn.send(None)
            self._proc.join(10)
        self._conn.close()


def warm_replay_check() -> None:
    """Run the CLI in the server as the sweep's children do (a replay check of every example,
    its resume and its validation), so each lazy import, compiled template and the CLI's
    click command are loaded once, here, instead of once per child. The warm-up's runs are
    recorded in a data folder of their own, so no child sees them."""
    from paperlint.cli.root import run

    fixtures = Path(__file__).resolve().parents[1] / "fixtures"
    saved = os.environ.get("PAPERLINT_DATA_DIR")
    handlers, level = logging.root.handlers[:], logging.root.level
    with tempfile.TemporaryDirectory(prefix="paperlint-warm-") as tmp:
        os.environ["PAPERLINT_DATA_DIR"] = str(Path(tmp) / "userdata")
        for answers in sorted(fixtures.glob("*/answer-key.json")):
            fixture = answers.parent
            workdir = str(Path(tmp) / fixture.name)
            paper, replay = str(fixture / "paper.tex"), str(fixture / "replay")
            run(["check", paper, "--replay", replay, "--workdir", workdir, "--jobs", "1"])
            run(["resume", workdir])
            run(["validate", workdir])
    # The CLI's logging setup, done once per process, wrote to the warm-up's muted stderr: undo
    # it, so each child sets it up on its own stderr as a fresh process would.
    logging.root.handlers[:], logging.root.level = handlers, level
    if saved is None:
        del os.environ["PAPERLINT_DATA_DIR"]
    else:
        os.environ["PAPERLINT_DATA_DIR"] = saved


_server: list[ForkServer] = []


def server() -> ForkServer:
    """The session's one server, started on first use and stopped when pytest exits."""
    if not _server:
        _server.append(ForkServer(warm_replay_check))
        atexit.register(_server[0].close)
    return _server[0]

"""The one error boundary (docs/design.md §8), without typer: both ways a command starts run
through `guarded` — the typer app (`paperlint.cli.root`, which adds only click's own usage
errors, help and exits) and the small parser that starts `paperlint preflight` without
importing typer (`paperlint.cli.fast`).

`guarded` maps an exception to its message and exit code: a bad input or state (exit 2, the
message and hint), a disk that refused a write (exit 2, what to do), ^C (130) and anything
else (exit 3 and a crash log). Under `--format json` an error is also one JSON object on
stdout (`json_error`). `echo` writes as click's `echo` writes to a standard stream (a newline,
ANSI codes stripped when the stream is not a terminal, flushed), so a message reads the same
byte for byte whichever way the command started.
"""

from __future__ import annotations

import errno
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from paperlint import __version__
from paperlint.errors import InputError, PaperlintError
from paperlint.exitcodes import ExitCode
from paperlint.secrets import scrub

# Where a crash log goes when a command knows its workspace (set by that command).
crash_dir: list[Path] = []

_ANSI = re.compile(r"\033\[[;?0-9]*[a-zA-Z]")  # the codes click's `strip_ansi` removes


def echo(message: str = "", *, err: bool = False) -> None:
    """`message` and a newline on stdout (stderr with `err`), as `click.echo` writes a string
    to a standard stream: colour codes stripped unless the stream is a terminal, flushed."""
    stream = sys.stderr if err else sys.stdout
    if stream is None:  # no standard stream attached (pythonw)
        return
    text = message + "\n"
    try:
        tty = stream.isatty()
    except Exception:  # click treats a stream that cannot say as no terminal
        tty = False
    stream.write(text if tty else _ANSI.sub("", text))
    stream.flush()


def configure_logging(verbose: bool) -> None:
    """The root logger for a command: warnings on stderr, progress too with `-v`. Set on every
    run (basicConfig configures once per process); a command's own `-v` raises it again."""
    import logging  # here, not at the top: `--help` never configures logging

    logging.basicConfig(format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    logging.getLogger().setLevel(logging.INFO if verbose else logging.WARNING)


def raise_verbosity(verbose: bool) -> bool:
    """A command's own `-v` (`paperlint CMD -v`), after the root's logging setup."""
    if verbose:
        import logging

        logging.getLogger().setLevel(logging.INFO)
    return verbose


def guarded(call: Callable[[], int], as_json: bool) -> int:
    """`call()`'s exit code, or the exit code of the error it raised, reported on stderr (and
    on stdout as JSON with `as_json`). The only place that catches broadly."""
    try:
        return call()
    except KeyboardInterrupt:
        echo("Interrupted (^C); the last complete record is saved.", err=True)
        return failed(as_json, ExitCode.INTERRUPTED, "interrupted", "interrupted (^C)")
    except InputError as exc:
        echo(str(exc), err=True)
        return failed(as_json, ExitCode.USAGE, "input", exc.message, exc)
    except PaperlintError as exc:
        echo(f"error: {exc}", err=True)
        if exc.hint:
            echo(f"  hint: {exc.hint}", err=True)
        return failed(as_json, ExitCode.USAGE, "state", str(exc), exc)
    except OSError as exc:
        if exc.errno in PATH_ERRORS and exc.filename:
            # an atomic write's rename names its target second (`os.replace(tmp, target)`)
            path = exc.filename2 or exc.filename
            error = InputError(PATH_ERRORS[exc.errno], path=path, hint=PATH_HINT)
            echo(str(error), err=True)
            return failed(as_json, ExitCode.USAGE, "input", error.message, error)
        if exc.errno not in DISK_ERRORS:
            return _crashed(exc, as_json)
        what = f"{DISK_ERRORS[exc.errno]}: {exc.filename or exc}"
        echo(f"error: {what}", err=True)
        echo(f"  hint: {DISK_HINT}", err=True)
        return failed(as_json, ExitCode.USAGE, "disk", what)
    except Exception as exc:  # the error boundary: anything else is our bug
        return _crashed(exc, as_json)


def aborted(as_json: bool) -> int:
    """A command click aborted (typer's `main` turns an end of input into an abort)."""
    echo("Interrupted (^C)", err=True)
    return failed(as_json, ExitCode.INTERRUPTED, "interrupted", "interrupted (^C)")


DISK_ERRORS = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EROFS: "the folder is on a read-only file system",
    errno.EACCES: "no permission to write",
    errno.EPERM: "no permission to write",
}
"""Write failures that are the machine's, not a bug: exit 2 with what to do, no crash log."""
PATH_ERRORS = {
    errno.EISDIR: "is a folder, where a file is written",
    errno.ENOTDIR: "a part of this path is a file, where a folder is needed",
    errno.EEXIST: "is a file, where a folder is needed",
}
"""A path the user gave (`-o`, `--workdir`) that cannot be what is written there: exit 2 naming
it, not a crash (`report --format md -o /tmp`, `preflight -o paper.tex/x.json`)."""
PATH_HINT = "give a new name, or a path whose folders are folders"
DISK_HINT = (
    "every record written before this is complete (writes are atomic); make room or use a "
    "writable folder, then run the command again (`paperlint resume DIR` continues a check)"
)


def _crashed(exc: Exception, as_json: bool) -> int:
    path = write_crash_log(exc)
    echo(f"internal error: {exc!r}\n  a crash log was written to {path}", err=True)
    return failed(as_json, ExitCode.INTERNAL, "internal", repr(exc), crash_log=path)


def write_crash_log(exc: BaseException) -> Path:
    import datetime as _dt
    import platform
    import tempfile
    import traceback

    folder = crash_dir[-1] if crash_dir else Path(tempfile.gettempdir())
    stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    path = folder / (f"crash-{stamp}-{os.getpid()}.log")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        text = (
            f"paperlint {__version__} on Python {platform.python_version()} "
            f"({platform.platform()})\n"
            f"argv: {' '.join(sys.argv)}\n\n" + "".join(traceback.format_exception(exc))
        )
        path.write_text(scrub(text), encoding="utf-8")
    except OSError:
        path = Path(tempfile.gettempdir()) / path.name
        path.write_text(scrub("".join(traceback.format_exception(exc))), encoding="utf-8")
    return path


def json_requested(argv: list[str]) -> bool:
    """`--format json` (or `-f json`, `--format=json`) is among the arguments."""
    pairs = zip(argv, argv[1:], strict=False)
    return "--format=json" in argv or any(a in ("--format", "-f") and b == "json" for a, b in pairs)


def failed(
    as_json: bool,
    code: ExitCode,
    kind: str,
    message: str,
    exc: PaperlintError | None = None,
    crash_log: Path | None = None,
) -> int:
    if as_json:
        import json  # here: the hook's command never asks for JSON (~1.5 ms at start-up)

        echo(json.dumps(json_error(code, kind, message, exc, crash_log), indent=2))
    return int(code)


def json_error(
    code: ExitCode,
    kind: str,
    message: str,
    exc: PaperlintError | None = None,
    crash_log: Path | None = None,
) -> dict[str, object]:
    """An error as `--format json` prints it: `ok` false, the exit code, and what happened."""
    error: dict[str, object] = {"kind": kind, "message": message}
    if isinstance(exc, InputError):
        error |= {"path": exc.path, "line": exc.line}
    if exc is not None and exc.hint:
        error["hint"] = exc.hint
    if crash_log is not None:
        error["crash_log"] = str(crash_log)
    return {"ok": False, "exit_code": int(code), "error": error}


def exit_with(code: int, *, finished: bool = False) -> NoReturn:
    """End the process with `code`. `finished`: the command left nothing running and nothing
    unwritten (every command of the console script: `paperlint.cli.fast`, `root.main`), so the
    process ends as at any exit (the atexit handlers run, stdout and stderr are flushed) but
    without the interpreter taking itself apart, object by object and module by module: 7.5 of
    the 59 ms of a whole `paperlint preflight -q` of cpt-rl (medians of 25, 2026-12-04), and
    more after a command that imported Ray (docs/ray.md "Leaving"). A stream that cannot be
    flushed (a reader that closed the pipe), or a thread still running that the interpreter
    would wait for, takes the ordinary exit."""
    if code == ExitCode.INTERRUPTED:
        # After ^C every record is written; a thread still waiting on a hung request (it
        # was abandoned) must not hold the exit, as the interpreter's join at exit would.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    if finished and not _threads_to_wait_for():
        import atexit

        atexit._run_exitfuncs()
        if os.environ.get(CHECK_EXIT):
            left = open_for_writing()
            if left:
                sys.stderr.write(f"paperlint: internal: still open for writing at exit: {left}\n")
                code = ExitCode.INTERNAL
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (OSError, ValueError):
            sys.exit(code)
        os._exit(code)
    sys.exit(code)


CHECK_EXIT = "PAPERLINT_CHECK_EXIT"
"""Set (the test suite sets it for every process it starts): before the exit without teardown,
a file still open for writing ends the process with `INTERNAL`, naming it. The exit would lose
what such a file holds in its buffer, silently; in a test it fails whatever ran the command."""


def open_for_writing() -> list[str]:
    """The files (by path) this process still has open for writing, standard streams and pipes
    aside. Reads every object the collector tracks (~2 ms at the end of a short command)."""
    import gc
    import io

    kinds = (io.BufferedWriter, io.BufferedRandom, io.TextIOWrapper, io.FileIO)
    found = set()
    for obj in gc.get_objects():
        if not isinstance(obj, kinds) or obj.closed:
            continue
        name = getattr(obj, "name", None)
        if isinstance(name, str) and not name.startswith("<") and obj.writable():
            found.add(name)
    return sorted(found)


def _threads_to_wait_for() -> bool:
    """Whether a thread the interpreter joins at its exit (not a daemon) is still running;
    `threading` is not imported to ask (~1 ms): without it no such thread was started."""
    threading = sys.modules.get("threading")
    if threading is None:
        return False
    main = threading.main_thread()
    return any(t is not main and not t.daemon and t.is_alive() for t in threading.enumerate())

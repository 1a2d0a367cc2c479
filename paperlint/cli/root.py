"""The typer app and the one error boundary (docs/design.md §8).

Commands live in their own modules and register on `app` (or `lean_app`) when imported. Heavy
libraries (lean-interact, litellm, pdfminer) are imported inside command bodies only, so that
`paperlint --help` starts fast.
"""

from __future__ import annotations

import datetime as _dt
import errno
import logging
import os
import platform
import sys
import tempfile
import traceback
from functools import cache
from pathlib import Path

import typer
from typer import Abort, Exit, TyperException
from typer.core import TyperGroup

from paperlint import __version__
from paperlint.cli.options import VERBOSE
from paperlint.errors import InputError, PaperlintError
from paperlint.exitcodes import ExitCode
from paperlint.secrets import scrub, scrubbed_terminal

app = typer.Typer(
    name="paperlint",
    help="Check the proofs in a mathematics or statistics paper against Lean 4 + Mathlib.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,  # a traceback must never print an API key
    add_completion=False,
)
lean_app = typer.Typer(
    help="Lean utilities: the mechanical audit, declaration search, goals.", no_args_is_help=True
)
app.add_typer(lean_app, name="lean")

# Where a crash log goes when a command knows its workspace (set by that command).
crash_dir: list[Path] = []


def _version(value: bool) -> None:
    if value:
        typer.echo(f"paperlint {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version."
    ),
    verbose: bool = VERBOSE,
) -> None:
    """paperlint: every numbered result gets a verdict backed by Lean evidence."""
    logging.basicConfig(format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    # Set on every run (basicConfig only configures once per process); each command's own
    # `-v` (paperlint.cli.options.VERBOSE) raises it again after this.
    logging.getLogger().setLevel(logging.INFO if verbose else logging.WARNING)


def _register_commands() -> None:
    # Imported for their side effect: each module decorates its commands onto `app`.
    from paperlint.cli import (  # noqa: F401
        batch_cmd,
        check_cmd,
        lean_cmd,
        lean_tools_cmd,
        library_cmd,
        mcp_cmd,
        migrate_cmd,
        preflight_cmd,
        report_cmd,
        revise_cmd,
        runs_cmd,
        setup_cmd,
        validate_cmd,
    )


def _write_crash_log(exc: BaseException) -> Path:
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


@cache
def command() -> TyperGroup:
    """The click command behind `app`, built once per process: building it inspects every
    command's signature (the MCP server and the test suite's fork server run many commands
    in one process). `run` registers every command module first."""
    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)
    return group


def run(argv: list[str] | None = None) -> int:
    """Run the CLI and return the exit code; the terminal masks every API key the command
    was given (`paperlint.secrets`)."""
    with scrubbed_terminal():
        return _run(argv)


def _run(argv: list[str] | None) -> int:
    """The only place that catches broadly."""
    _register_commands()
    try:
        rc = command()(args=argv, standalone_mode=False)
    except Exit as exc:
        return int(exc.exit_code)
    except Abort:
        typer.echo("Interrupted (^C)", err=True)
        return ExitCode.INTERRUPTED
    except TyperException as exc:
        # A usage error, or no arguments (the help). typer >= 0.28 derives the exceptions of
        # the click it vendors from this public class; their `show` prints usage or help.
        show = getattr(exc, "show", None)
        if callable(show):
            show()
        else:
            typer.echo(f"Error: {exc.format_message()}", err=True)
        return ExitCode.USAGE
    except KeyboardInterrupt:
        typer.echo("Interrupted (^C); the last complete record is saved.", err=True)
        return ExitCode.INTERRUPTED
    except InputError as exc:
        typer.echo(str(exc), err=True)
        return ExitCode.USAGE
    except PaperlintError as exc:
        typer.echo(f"error: {exc}", err=True)
        if exc.hint:
            typer.echo(f"  hint: {exc.hint}", err=True)
        return ExitCode.USAGE
    except OSError as exc:
        if exc.errno not in DISK_ERRORS:
            return _crashed(exc)
        typer.echo(f"error: {DISK_ERRORS[exc.errno]}: {exc.filename or exc}", err=True)
        typer.echo(
            "  hint: every record written before this is complete (writes are atomic); "
            "make room or use a writable folder, then run the command again "
            "(`paperlint resume DIR` continues a check)",
            err=True,
        )
        return ExitCode.USAGE
    except Exception as exc:  # the error boundary: anything else is our bug
        return _crashed(exc)
    return int(rc or 0)


DISK_ERRORS = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EROFS: "the folder is on a read-only file system",
    errno.EACCES: "no permission to write",
    errno.EPERM: "no permission to write",
}
"""Write failures that are the machine's, not a bug: exit 2 with what to do, no crash log."""


def _crashed(exc: Exception) -> int:
    path = _write_crash_log(exc)
    typer.echo(f"internal error: {exc!r}\n  a crash log was written to {path}", err=True)
    return ExitCode.INTERNAL


def main() -> None:
    code = run()
    if code == ExitCode.INTERRUPTED:
        # After ^C every record is written; a thread still waiting on a hung request (it
        # was abandoned) must not hold the exit, as the interpreter's join at exit would.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)

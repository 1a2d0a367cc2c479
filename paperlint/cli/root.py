"""The typer app and the one error boundary (docs/design.md §8).

Commands live in their own modules and register on `app` (or `lean_app`) when imported, and a
module is imported only when its command runs (`COMMANDS`, `_LazyGroup`): `paperlint --help`
lists every command from the table below without importing one, and `paperlint preflight`
imports the preflight command alone. Heavy libraries (lean-interact, litellm, pdfminer) are
imported inside command bodies only. `tests/cli/test_lazy_commands.py` keeps the table in step
with the commands and holds `--help` to a budget.
"""

from __future__ import annotations

import errno
import importlib
import json
import os
import sys
from functools import cache
from pathlib import Path
from typing import Any, Final, NamedTuple

import typer
import typer.main
from typer import Abort, Exit, TyperException
from typer import _click as click  # the click typer >= 0.28 vendors: its types are its own
from typer.core import TyperCommand, TyperGroup

from paperlint import __version__
from paperlint.cli.options import VERBOSE
from paperlint.errors import InputError, PaperlintError
from paperlint.exitcodes import ExitCode
from paperlint.secrets import scrub, scrubbed_terminal


class CommandEntry(NamedTuple):
    modules: tuple[str, ...]  # under paperlint.cli: importing them registers the command
    help: str  # the first paragraph of the command's help (`--help` shortens it as click does)


# Every top-level command, in the order `--help` lists them.
COMMANDS: Final[dict[str, CommandEntry]] = {
    "check": CommandEntry(
        ("check_cmd",), "Check every numbered result of PAPER; verdicts go to PAPER.paperlint/."
    ),
    "resume": CommandEntry(("check_cmd",), "Continue a check from its last complete record."),
    "status": CommandEntry(("check_cmd",), "Show each result's stage and verdict (read-only)."),
    "batch": CommandEntry(
        ("batch_cmd",), "Check every paper in its own workspace; print one summary table."
    ),
    "mcp": CommandEntry(
        ("mcp_cmd",), "Serve paperlint's commands as MCP tools over stdio (needs `paperlint[mcp]`)."
    ),
    "migrate": CommandEntry(
        ("migrate_cmd",),
        "Rewrite an older workspace's records in the current schema; nothing else changes.",
    ),
    "preflight": CommandEntry(
        ("preflight_cmd",),
        "List every numbered result with its number, label, place, proof and uses.",
    ),
    "report": CommandEntry(
        ("report_cmd",),
        "Write the author report: md, html, json, sarif, graph, worksheet, files to check.",
    ),
    "revise": CommandEntry(
        ("revise_cmd",),
        "Reset the results a new version changed; then `paperlint resume DIR` re-checks them.",
    ),
    "doctor": CommandEntry(
        ("setup_cmd",),
        "Say which pieces a real check needs are present, and the command that fixes each.",
    ),
    "setup": CommandEntry(
        ("setup_cmd",), "Install the pinned toolchain, Mathlib and the REPL (needs network, once)."
    ),
    "validate": CommandEntry(
        ("validate_cmd",), "Re-derive every verdict from its evidence; exit 1 on any disagreement."
    ),
    "replay": CommandEntry(
        ("validate_cmd",),
        "Re-run every Lean check and the mechanical audit with no model; re-derive each verdict.",
    ),
    "lean": CommandEntry(
        ("lean_cmd", "lean_tools_cmd"),
        "Lean utilities: the mechanical audit, declaration search, goals.",
    ),
    "library": CommandEntry(
        ("library_cmd",),
        "The reviewed lemma library: helper lemmas a person promoted from past checks.",
    ),
    "config": CommandEntry(
        ("config_cmd",),
        "Print the config files read for PAPER and each effective value with its origin.",
    ),
    "runs": CommandEntry(
        ("runs_cmd",), "The per-user run record of past checks, and the strategy it would choose."
    ),
}


class _LazyGroup(TyperGroup):
    """The root group: every command of `COMMANDS` is listed, and its module imported (and the
    command built from what it registered) the first time the command is looked up."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*COMMANDS, *(name for name in self.commands if name not in COMMANDS)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            built = _built(cmd_name)
            if built is not None:
                self.commands[cmd_name] = built
        found = super().get_command(ctx, cmd_name)
        if found is not None:
            _plain_params(found, ctx)
        return found

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list from the table, nothing imported; shortened as click shortens."""
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = [
            (name, TyperCommand(name, help=e.help).get_short_help_str(limit))
            for name, e in COMMANDS.items()
        ]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def _built(name: str) -> click.Command | None:
    """The click command `name`, after importing the modules that register it."""
    for module in COMMANDS[name].modules:
        importlib.import_module(f"paperlint.cli.{module}")
    options: dict[str, Any] = {
        "pretty_exceptions_short": app.pretty_exceptions_short,
        "rich_markup_mode": app.rich_markup_mode,
    }
    for info in app.registered_commands:
        if info.name == name:
            return typer.main.get_command_from_info(info, **options)
    for group in app.registered_groups:
        if group.name == name:
            return typer.main.get_group_from_info(
                group, suggest_commands=app.suggest_commands, **options
            )
    return None


app = typer.Typer(
    name="paperlint",
    cls=_LazyGroup,
    # click's plain help: typer's rich one imports rich (a third of a second) for every
    # `--help` and every usage error, and its markup ate `[mcp]` in `paperlint[mcp]`
    rich_markup_mode=None,
    help="Check the proofs in a mathematics or statistics paper against Lean 4 + Mathlib.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,  # a traceback must never print an API key
    add_completion=True,  # --install-completion, --show-completion (docs/cli.md)
)
lean_app = typer.Typer(
    help="Lean utilities: the mechanical audit, declaration search, goals.",
    no_args_is_help=True,
    rich_markup_mode=None,
)

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
    import logging  # here, not at the top: `--help` never configures logging

    logging.basicConfig(format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    # Set on every run (basicConfig only configures once per process); each command's own
    # `-v` (paperlint.cli.options.VERBOSE) raises it again after this.
    logging.getLogger().setLevel(logging.INFO if verbose else logging.WARNING)


def _register_commands() -> None:
    """Import every command module (the docs, the MCP server and tests walk every command);
    a plain run imports only the one it runs."""
    for entry in COMMANDS.values():
        for module in entry.modules:
            importlib.import_module(f"paperlint.cli.{module}")


def _write_crash_log(exc: BaseException) -> Path:
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


@cache
def command() -> TyperGroup:
    """The click command behind `app`, built once per process: building it inspects every
    command's signature (the MCP server and the test suite's fork server run many commands
    in one process). A command's module is imported when the command is first looked up."""
    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)
    _plain_params(group, click.Context(group))
    return group


def _plain_params(command: click.Command, ctx: click.Context) -> None:
    """Plain parameters converted without pydantic (cli/coercion.py); under a typer whose
    private layout differs, typer's own conversion stays (slower, the same answers)."""
    try:
        from paperlint.cli.coercion import plain_params
    except ImportError:
        return
    plain_params(command, ctx)


def run(argv: list[str] | None = None) -> int:
    """Run the CLI and return the exit code; the terminal masks every API key the command
    was given (`paperlint.secrets`). Under `--format json` an error is also one JSON object
    on stdout (`json_error`)."""
    with scrubbed_terminal():
        return _run(argv)


def _run(argv: list[str] | None) -> int:
    """The only place that catches broadly."""
    as_json = json_requested(sys.argv[1:] if argv is None else argv)
    try:
        rc = command()(args=argv, standalone_mode=False)
    except Exit as exc:
        return int(exc.exit_code)
    except SystemExit as exc:  # shell completion (`--show-completion`, `_PAPERLINT_COMPLETE`)
        return exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
    except Abort:
        typer.echo("Interrupted (^C)", err=True)
        return _failed(as_json, ExitCode.INTERRUPTED, "interrupted", "interrupted (^C)")
    except TyperException as exc:
        # A usage error, or no arguments (the help). typer >= 0.28 derives the exceptions of
        # the click it vendors from this public class; their `show` prints usage or help.
        show = getattr(exc, "show", None)
        if callable(show):
            show()
        else:
            typer.echo(f"Error: {exc.format_message()}", err=True)
        return _failed(as_json, ExitCode.USAGE, "usage", exc.format_message())
    except KeyboardInterrupt:
        typer.echo("Interrupted (^C); the last complete record is saved.", err=True)
        return _failed(as_json, ExitCode.INTERRUPTED, "interrupted", "interrupted (^C)")
    except InputError as exc:
        typer.echo(str(exc), err=True)
        return _failed(as_json, ExitCode.USAGE, "input", exc.message, exc)
    except PaperlintError as exc:
        typer.echo(f"error: {exc}", err=True)
        if exc.hint:
            typer.echo(f"  hint: {exc.hint}", err=True)
        return _failed(as_json, ExitCode.USAGE, "state", str(exc), exc)
    except OSError as exc:
        if exc.errno not in DISK_ERRORS:
            return _crashed(exc, as_json)
        what = f"{DISK_ERRORS[exc.errno]}: {exc.filename or exc}"
        typer.echo(f"error: {what}", err=True)
        typer.echo(f"  hint: {DISK_HINT}", err=True)
        return _failed(as_json, ExitCode.USAGE, "disk", what)
    except Exception as exc:  # the error boundary: anything else is our bug
        return _crashed(exc, as_json)
    return int(rc or 0)


DISK_ERRORS = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EROFS: "the folder is on a read-only file system",
    errno.EACCES: "no permission to write",
    errno.EPERM: "no permission to write",
}
"""Write failures that are the machine's, not a bug: exit 2 with what to do, no crash log."""
DISK_HINT = (
    "every record written before this is complete (writes are atomic); make room or use a "
    "writable folder, then run the command again (`paperlint resume DIR` continues a check)"
)


def _crashed(exc: Exception, as_json: bool) -> int:
    path = _write_crash_log(exc)
    typer.echo(f"internal error: {exc!r}\n  a crash log was written to {path}", err=True)
    return _failed(as_json, ExitCode.INTERNAL, "internal", repr(exc), crash_log=path)


def json_requested(argv: list[str]) -> bool:
    """`--format json` (or `-f json`, `--format=json`) is among the arguments."""
    pairs = zip(argv, argv[1:], strict=False)
    return "--format=json" in argv or any(a in ("--format", "-f") and b == "json" for a, b in pairs)


def _failed(
    as_json: bool,
    code: ExitCode,
    kind: str,
    message: str,
    exc: PaperlintError | None = None,
    crash_log: Path | None = None,
) -> int:
    if as_json:
        typer.echo(json.dumps(json_error(code, kind, message, exc, crash_log), indent=2))
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


def main() -> None:
    code = run()
    if code == ExitCode.INTERRUPTED:
        # After ^C every record is written; a thread still waiting on a hung request (it
        # was abandoned) must not hold the exit, as the interpreter's join at exit would.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)

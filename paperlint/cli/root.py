"""The typer app, behind the one error boundary (`paperlint.cli.boundary`, docs/design.md §8).

Commands live in their own modules and register on `app` (or `lean_app`) when imported, and a
module is imported only when its command runs (`COMMANDS`, `_LazyGroup`): `paperlint --help`
lists every command from the table below without importing one, and `paperlint preflight`
imports the preflight command alone. Heavy libraries (lean-interact, litellm, pdfminer) are
imported inside command bodies only. `tests/cli/test_lazy_commands.py` keeps the table in step
with the commands and holds `--help` to a budget. `paperlint preflight` with arguments a small
parser knows starts without this module (`paperlint.cli.fast`).
"""

from __future__ import annotations

import importlib
import sys
from functools import cache
from typing import Any, Final, NamedTuple, NoReturn

import typer
import typer.main
from typer import Abort, Exit, TyperException
from typer import _click as click  # the click typer >= 0.28 vendors: its types are its own
from typer.core import TyperCommand, TyperGroup

from paperlint import __version__
from paperlint.cli.boundary import (
    aborted,
    configure_logging,
    echo,
    exit_with,
    failed,
    guarded,
    json_requested,
)
from paperlint.cli.options import VERBOSE
from paperlint.exitcodes import ExitCode
from paperlint.secrets import scrubbed_terminal


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
    configure_logging(verbose)


def _register_commands() -> None:
    """Import every command module (the docs, the MCP server and tests walk every command);
    a plain run imports only the one it runs."""
    for entry in COMMANDS.values():
        for module in entry.modules:
            importlib.import_module(f"paperlint.cli.{module}")


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
    on stdout (`paperlint.cli.boundary.json_error`)."""
    with scrubbed_terminal():
        return _run(argv)


def _run(argv: list[str] | None) -> int:
    """The error boundary (`guarded`) around click: this adds only click's own exits, help
    and usage errors."""
    as_json = json_requested(sys.argv[1:] if argv is None else argv)
    return guarded(lambda: _click_run(argv, as_json), as_json)


def _click_run(argv: list[str] | None, as_json: bool) -> int:
    try:
        rc = command()(args=argv, standalone_mode=False)
    except Exit as exc:
        return int(exc.exit_code)
    except SystemExit as exc:  # shell completion (`--show-completion`, `_PAPERLINT_COMPLETE`)
        return exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
    except Abort:
        return aborted(as_json)
    except TyperException as exc:
        # A usage error, or no arguments (the help). typer >= 0.28 derives the exceptions of
        # the click it vendors from this public class; their `show` prints usage or help.
        show = getattr(exc, "show", None)
        if callable(show):
            show()
        else:
            echo(f"Error: {exc.format_message()}", err=True)
        return failed(as_json, ExitCode.USAGE, "usage", exc.format_message())
    return int(rc or 0)


def main() -> NoReturn:
    """The typer path of the console script (`paperlint.cli.fast.main` decides). Every command
    has closed what it opened and joined what it started by the time it returns (its records
    are written atomically, its Lean and Ray processes stopped), so the process leaves without
    the interpreter's teardown (`exit_with(finished=True)`, which takes the ordinary exit when a
    thread is still running)."""
    exit_with(run(), finished=True)

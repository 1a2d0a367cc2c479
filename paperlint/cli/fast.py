"""`paperlint preflight` without typer: the pre-commit hook's command starts in a fraction of
typer's start-up.

Importing typer, the click it vendors and the typer app costs about as long as a bare
interpreter's start, a fifth of a short paper's whole preflight (docs/ci.md). `main`, the
console script, reads `paperlint preflight ARGS` with a small parser when every argument is one
it knows (a path, the options of `PREFLIGHT`, each once or repeated as click allows) and calls
the function the typer command calls (`paperlint.cli.preflight_run.preflight`) inside the same
error boundary (`paperlint.cli.boundary.guarded`), logging setup and masked terminal. Anything
else (another command, `--help`, an option this parser does not know, a value it cannot vouch
for: a choice not offered, an unreadable path, a value starting with `-`, combined short flags)
goes to the typer app, which answers it (help, usage errors) as it always has.
`tests/cli/test_fast_preflight.py` holds `PREFLIGHT` to the typer command's options and both
paths to the same output, byte for byte.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, Literal, NamedTuple

from paperlint.cli.boundary import (
    aborted,
    configure_logging,
    echo,
    exit_with,
    guarded,
    json_requested,
    raise_verbosity,
)
from paperlint.exitcodes import ExitCode
from paperlint.secrets import scrubbed_terminal


class Option(NamedTuple):  # not a dataclass: `dataclasses` imports `inspect` (~6 ms)
    """One option of the typer command, as this parser reads it."""

    name: str  # the parameter's name (a keyword of `preflight_run.preflight`)
    flags: tuple[str, ...]  # as click lists them (`param.opts`)
    kind: Literal["flag", "text", "path", "choice"]
    multiple: bool = False
    choices: tuple[str, ...] = ()
    default: Any = None


# `paperlint preflight`'s options (paperlint/cli/preflight_cmd.py), in its order; its one
# argument is the paper's path (`ARGUMENT`).
PREFLIGHT: Final = (
    Option("root", ("--root",), "text"),
    Option("fmt", ("--format",), "choice", choices=("text", "json"), default="text"),
    Option("output", ("-o", "--output"), "path"),
    Option("latex", ("--latex",), "flag", default=False),
    Option("fail_on", ("--fail-on",), "choice", choices=("error", "warning")),
    Option("strict", ("--strict",), "flag", default=False),
    Option("ignore", ("--ignore",), "text", multiple=True, default=()),
    Option("config", ("--config",), "path"),
    Option("quiet", ("--quiet", "-q"), "flag", default=False),
    Option("verbose", ("--verbose", "-v"), "flag", default=False),
)
ARGUMENT: Final = "path"
_BY_FLAG: Final = {flag: option for option in PREFLIGHT for flag in option.flags}


def parse(argv: list[str]) -> dict[str, Any] | None:
    """The parameters typer would pass `paperlint preflight` for `argv` (every option, its
    default where not given), or None where typer must read `argv` itself."""
    if not argv or argv[0] != "preflight" or _completing():
        return None
    values: dict[str, Any] = {o.name: [] if o.multiple else o.default for o in PREFLIGHT}
    values[ARGUMENT] = None
    rest = iter(argv[1:])
    for arg in rest:
        if not arg.startswith("-"):  # the path (click reads `-` and `--` otherwise)
            if values[ARGUMENT] is not None or not _plain_path(arg):
                return None  # a second argument: typer's usage error
            values[ARGUMENT] = arg
            continue
        flag, eq, value = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        option = _BY_FLAG.get(flag)
        if option is None:
            return None  # --help, an unknown option, `-qv`, `-ofile`
        if option.kind == "flag":
            if eq:
                return None  # `--quiet=yes`: click's error
            values[option.name] = True
            continue
        given = value if eq else next(rest, None)
        if given is None or not _plain_value(option, given):
            return None
        if option.multiple:
            values[option.name].append(given)
        else:
            values[option.name] = given  # given twice: the last one, as click does
    return values


def _completing() -> bool:
    """Shell completion asks through `_PROG_COMPLETE` (click); typer answers it."""
    return any(key.startswith("_") and key.endswith("_COMPLETE") for key in os.environ)


def _plain_value(option: Option, value: str) -> bool:
    """`value` is one typer takes for `option` as given, with no message of its own."""
    if not value or value.startswith("-"):
        return False  # click may read it as the next option or refuse it: typer decides
    if option.kind == "choice":
        return value in option.choices
    return option.kind != "path" or _plain_path(value)


def _plain_path(value: str) -> bool:
    """typer refuses a path that exists but cannot be read (`readable`), and its conversion
    alone knows a path the system cannot take (a NUL)."""
    if not value or "\0" in value:
        return False
    try:
        os.stat(value)
    except OSError:
        return True  # a path that does not exist is preflight's to refuse
    except ValueError:
        return False
    return os.access(value, os.R_OK)


def run(argv: list[str], values: dict[str, Any]) -> int:
    """`paperlint preflight` with the parameters `parse` read from `argv`: the exit code."""
    as_json = json_requested(argv)
    with scrubbed_terminal():
        return guarded(lambda: _as_typer_main(lambda: _preflight(dict(values)), as_json), as_json)


def _as_typer_main(call: Callable[[], int], as_json: bool) -> int:
    """What typer's `main` makes of these around a command (typer.core._main, not standalone,
    as `paperlint.cli.root` runs it): ^C is exit 130 and nothing printed; an end of input
    a blank line and an abort; a broken pipe exit 1, quietly."""
    try:
        return call()
    except EOFError:
        echo("", err=True)
        return aborted(as_json)
    except KeyboardInterrupt:
        return int(ExitCode.INTERRUPTED)
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            raise
        return 1


def _preflight(values: dict[str, Any]) -> int:
    verbose = values.pop("verbose")
    if verbose or values["latex"]:
        # as the root callback does (`paperlint -v` goes to typer). Only then: without `-v`
        # or `--latex` (latexrun logs) nothing on this path imports `logging` (~7 ms of the
        # hook's start-up), so nothing can log.
        configure_logging(False)
        raise_verbosity(verbose)
    from paperlint.cli.plain import Format
    from paperlint.cli.preflight_run import FailOn, preflight

    path, output, config = (values.pop(k) for k in (ARGUMENT, "output", "config"))
    fail_on = values.pop("fail_on")
    return preflight(
        None if path is None else Path(path),
        output=None if output is None else Path(output),
        config=None if config is None else Path(config),
        fail_on=None if fail_on is None else FailOn(fail_on),
        fmt=Format(values.pop("fmt")),
        **values,
    )


# The cyclic garbage collector's first threshold: a collection after this many more container
# objects made than freed, not CPython's 700. A command makes many objects and frees few until
# it ends (imports, preflight's records), so at 700 the collector ran 12-16 times in a
# preflight of cpt-rl or pfr and collected nothing; at 100,000 a whole `paperlint preflight -q`
# took 1.3-1.5 ms less (2 %, 30 interleaved runs, 2026-12-04). Cycles are still
# collected, later (docs/ci.md: mypy does the same, with 200,000).
GC_THRESHOLD: Final = 100_000


def main() -> None:
    """The console script: `paperlint preflight` read here when `parse` can, else typer."""
    import gc

    gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])
    argv = sys.argv[1:]
    values = parse(argv)
    if values is None:
        from paperlint.cli.root import main as typer_main

        typer_main()
    exit_with(run(argv, values), finished=True)

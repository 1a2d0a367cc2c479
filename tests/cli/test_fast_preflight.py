"""`paperlint preflight` without typer (paperlint/cli/fast.py): the parser's option table is
the typer command's, the two ways of starting print the same bytes and exit with the same code
on every case below, and the pre-commit hook's command imports neither typer nor click."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import typing
from enum import Enum
from pathlib import Path
from typing import Any

import pytest
from typer import _click as click  # the click typer vendors
from typer.core import TyperArgument, TyperOption

from paperlint.cli import boundary, fast
from paperlint.cli.root import command
from paperlint.exitcodes import ExitCode
from tests.cli.papers import CLEAN, DUPLICATE

# A paper with a duplicate label (7:12) and a reference to an undefined one.
WARNED = DUPLICATE.replace("is used.", r"is used, and so is \ref{lem:gone}.")
TYPER = "from paperlint.cli.root import main; main()"  # the typer path, whatever the arguments
FAST = (
    "from paperlint.cli import main; main()"  # the console script (pyproject: paperlint.cli:main)
)


def _click_preflight() -> click.Command:
    group = command()
    found = group.get_command(click.Context(group), "preflight")
    assert found is not None
    return found


def _kind(param: Any) -> tuple[str, tuple[str, ...]]:
    """What `fast.Option.kind` and `choices` say for a typer parameter."""
    if getattr(param, "is_flag", False):
        return "flag", ()
    annotation = param.type_descriptor.annotation
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    inner = args[0] if args else annotation
    if isinstance(inner, type) and issubclass(inner, Enum):
        return "choice", tuple(member.value for member in inner)
    if inner is Path:
        return "path", ()
    assert inner is str, f"{param.name}: {annotation} is not a kind the fast parser reads"
    return "text", ()


def test_the_option_table_is_the_typer_commands():
    """Adding an option to the typer command without the fast parser fails here."""
    params = _click_preflight().params
    arguments = [p for p in params if isinstance(p, TyperArgument)]
    assert [a.name for a in arguments] == [fast.ARGUMENT]
    assert _kind(arguments[0]) == ("path", ())
    options = [p for p in params if isinstance(p, TyperOption)]
    typer_table = [
        (
            p.name,
            tuple(p.opts),
            *_kind(p),
            p.multiple,
            list(p.default) if p.multiple else p.default,
        )
        for p in options
    ]
    fast_table = [
        (
            o.name,
            o.flags,
            o.kind,
            o.choices,
            o.multiple,
            list(o.default) if o.multiple else o.default,
        )
        for o in fast.PREFLIGHT
    ]
    assert fast_table == typer_table
    for param in params:  # what the fast parser assumes of each
        assert not param.secondary_opts and param.envvar is None and param.nargs == 1
        assert not param.is_eager
        callback = param.callback  # typer wraps it (functools.wraps)
        assert callback is None or (callback.__module__, callback.__name__) == (
            fast.raise_verbosity.__module__,
            "raise_verbosity",
        )
        info = param.type_descriptor.parameter_info
        assert info.parser is None and not info.resolve_path and not info.allow_dash
        assert not info.exists and not info.writable and info.readable  # `_plain_path`


def _repo(tmp_path: Path) -> Path:
    """A paper repository: the paper with two warnings, a config, a PDF, two main files."""
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "paper.tex").write_text(WARNED, encoding="utf-8")
    (repo / "alt.toml").write_text('[preflight]\nignore = ["duplicate-label"]\n')
    (repo / "scan.pdf").write_bytes(b"%PDF-1.4\n%%EOF\n")
    # a hostile label: a terminal colour code (diagnostics print it escaped)
    (repo / "ansi.tex").write_text(DUPLICATE.replace("lem:a", "lem:\x1b[31ma"), encoding="utf-8")
    two = repo / "two"
    two.mkdir()
    (two / "a.tex").write_text(CLEAN, encoding="utf-8")
    (two / "b.tex").write_text(CLEAN, encoding="utf-8")
    return repo


# (argv after `paperlint`, whether the fast parser takes it)
CASES = [
    (["preflight", "--quiet", "--fail-on", "warning"], True),  # the pre-commit hook
    (["preflight", "paper.tex"], True),
    (["preflight", ".", "--root", "paper.tex", "-q"], True),
    (["preflight", "-q", "--fail-on=warning", "--ignore", "duplicate-label"], True),
    (
        ["preflight", "--ignore", "duplicate-label", "--ignore", "undefined-reference", "--strict"],
        True,
    ),
    (["preflight", "--strict", "paper.tex"], True),
    (["preflight", "--config", "alt.toml", "--fail-on", "warning"], True),
    (["preflight", "paper.tex", "-o", "out.json"], True),
    (["preflight", "paper.tex", "--format", "json"], True),
    (["preflight", "paper.tex", "--format=json", "--quiet", "--fail-on", "error"], True),
    (["preflight", "paper.tex", "-v", "--fail-on", "error", "--fail-on", "warning"], True),
    (["preflight", "scan.pdf", "--latex"], True),  # refused: --latex needs the sources
    pytest.param(
        ["preflight", "paper.tex", "--latex", "-q"],
        True,
        marks=pytest.mark.skipif(shutil.which("latexmk") is None, reason="needs latexmk (TeX)"),
    ),
    (["preflight", "ansi.tex"], True),
    (["preflight", "ansi.tex", "--format", "json"], True),
    (["preflight", "gone.tex"], True),  # no such file
    (["preflight", "gone.tex", "--format", "json"], True),  # ... as a JSON error object
    (["preflight", "two"], True),  # two candidate main files
    (["preflight", "--quiet", "--fail-on", "warnings"], False),  # not a choice
    (["preflight", "--help"], False),
    (["preflight", "-qv", "paper.tex"], False),
    (["preflight", "paper.tex", "--colour"], False),  # no such option
    (["preflight", "paper.tex", "two"], False),  # an extra argument
    (["preflight", "paper.tex", "--root"], False),  # a value missing
    (["preflight", "--", "paper.tex"], False),
    (["-v", "preflight", "paper.tex"], False),
]


def _run(code: str, argv: list[str], cwd: Path) -> tuple[str, str, int, str | None]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_COMPLETE")}
    env |= {"NO_COLOR": "1", "TMPDIR": str(cwd.parent)}  # a crash log lands beside the repo
    done = subprocess.run(
        [sys.executable, "-c", code, *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    out = cwd / "out.json"
    written = out.read_text(encoding="utf-8") if out.exists() else None
    return done.stdout, done.stderr, done.returncode, written


def _id(case: Any) -> str:
    return " ".join(case.values[0] if hasattr(case, "values") else case[0])


@pytest.mark.parametrize(("argv", "taken"), CASES, ids=[_id(c) for c in CASES])
def test_both_paths_print_the_same_bytes_and_exit_the_same(tmp_path, argv, taken):
    assert (fast.parse(argv) is not None) is taken
    repo = _repo(tmp_path)
    typer_repo = shutil.copytree(repo, tmp_path / "typer")  # each writes its own out.json
    got = _run(FAST, argv, repo)
    want = _run(TYPER, argv, typer_repo)
    assert got == want
    assert want[2] in (0, 1, 2), want  # each case is one of preflight's answers, not a crash


# preflight's body raising (patched before either path imports it): what each path makes of it
RAISING = """
import errno, sys
from paperlint.cli import preflight_run
from paperlint.errors import InputError, StateError

def boom(*args, **kwargs):
    raise {exc}

preflight_run.preflight = boom
{start}
"""
EXCEPTIONS = [
    "KeyboardInterrupt()",
    "EOFError()",
    "OSError(errno.EPIPE, 'Broken pipe')",
    "OSError(errno.ENOSPC, 'No space left on device', 'inventory.json')",
    "PermissionError(errno.EACCES, 'Permission denied', 'inventory.json')",
    "OSError(errno.EIO, 'I/O error')",
    "InputError('bad', path='p.tex', line=3, hint='fix it')",
    "StateError('locked')",
    "RuntimeError('boom')",
]


@pytest.mark.parametrize("fmt", [[], ["--format", "json"]], ids=["text", "json"])
@pytest.mark.parametrize("exc", EXCEPTIONS)
def test_both_paths_report_an_error_alike(tmp_path, exc, fmt):
    """The one error boundary (and typer's own handling of ^C, EOF and a broken pipe)."""
    argv = ["preflight", "paper.tex", *fmt]
    assert fast.parse(argv) is not None
    repo = _repo(tmp_path)
    got, want = (_run(RAISING.format(exc=exc, start=start), argv, repo) for start in (FAST, TYPER))
    crash = re.compile(r"crash-\d{8}T\d{6}Z-\d+\.log")  # the time and the process id
    assert [crash.sub("crash.log", str(part)) for part in got] == [
        crash.sub("crash.log", str(part)) for part in want
    ]
    assert want[2] in (1, 2, 3, 130), want


def test_the_cases_say_something(tmp_path):
    """The table's answers are preflight's own (so equal outputs are not two empty ones)."""
    repo = _repo(tmp_path)
    out, err, code, _ = _run(FAST, ["preflight", "--quiet", "--fail-on", "warning"], repo)
    assert code == 1 and out == ""
    assert "paper.tex:7:12: warning:" in err and "[undefined-reference]" in err
    out, err, code, _ = _run(FAST, ["preflight", "gone.tex", "--format", "json"], repo)
    assert code == 2 and json.loads(out)["error"]["kind"] == "input"
    assert "gone.tex: error: no such file or folder" in err
    out, err, code, _ = _run(FAST, ["preflight", "--fail-on", "warnings"], repo)
    assert code == 2 and "Invalid value" in err and "'warnings'" in err
    # `-v` sets logging up, so the inventory's progress line (logged only once `logging` is
    # imported) shows; without it nothing imports logging and nothing shows
    _, err, code, _ = _run(FAST, ["preflight", "paper.tex", "-q", "-v"], repo)
    assert "INFO paperlint.preflight.inventory: preflight: " in err, err
    _, err, code, _ = _run(FAST, ["preflight", "paper.tex", "-q"], repo)
    assert "INFO" not in err, err


class _Stream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize("tty", [False, True])
@pytest.mark.parametrize(
    "text",
    [
        "plain",
        "",
        "\x1b[31merror\x1b[0m: x",
        "a\x1b[2;33mb\x1b[?25l",
        "\x1b]8;;u\x07é\n",
        "\x1b[xyz",
    ],
)
def test_echo_writes_what_click_echo_writes(monkeypatch, tty, text):
    """`boundary.echo`, the fast path's, against the echo typer's path used before."""
    for err in (False, True):
        ours, theirs = _Stream(tty), _Stream(tty)
        monkeypatch.setattr(sys, "stderr" if err else "stdout", ours)
        boundary.echo(text, err=err)
        monkeypatch.setattr(sys, "stderr" if err else "stdout", theirs)
        click.echo(text, err=err)
        monkeypatch.undo()
        assert ours.getvalue() == theirs.getvalue()


@pytest.mark.parametrize(
    "argv",
    [
        ["preflight", "paper.tex", "--root", "-q"],  # a value that looks like an option
        ["preflight", "paper.tex", "--quiet=yes"],
        ["preflight", ""],
        ["preflight", "paper.tex", "--config="],
        ["check", "paper.tex"],
        [],
    ],
)
def test_what_the_parser_leaves_to_typer(argv):
    assert fast.parse(argv) is None


def test_the_parser_reads_what_typer_passes():
    values = fast.parse(["preflight", "p.tex", "--ignore", "a", "--ignore=b", "-o", "o.json", "-q"])
    assert values == {
        "path": "p.tex",
        "root": None,
        "fmt": "text",
        "output": "o.json",
        "latex": False,
        "fail_on": None,
        "strict": False,
        "ignore": ["a", "b"],
        "config": None,
        "quiet": True,
        "verbose": False,
    }


def test_the_hook_command_imports_no_typer_nor_click(tmp_path):
    """The whole process of the pre-commit hook's command (its entry, .pre-commit-hooks.yaml),
    started as the console script starts: no typer, no click, no typer app, no pydantic."""
    repo = _repo(tmp_path)
    done = subprocess.run(
        [
            sys.executable,
            "-X",
            "importtime",
            "-c",
            FAST,
            "preflight",
            "--quiet",
            "--fail-on",
            "warning",
        ],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stderr[-2000:]
    imported = {
        line.rsplit("|", 1)[1].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }
    assert "paperlint.cli.preflight_run" in imported  # the parse is read
    forbidden = {  # pydantic too: `--quiet` prints diagnostics, no contract record
        m
        for m in imported
        if m.split(".")[0] in ("typer", "click", "pydantic") or m == "paperlint.cli.root"
    }
    assert not forbidden, sorted(forbidden)
    # nothing on this path logs without -v/--latex, writes JSON without --format json or
    # starts a thread; SHA-256 without OpenSSL (docs/ci.md)
    unused = {"logging", "hashlib", "_hashlib", "json", "threading"}
    assert not unused & imported, sorted(unused & imported)


def test_the_hook_runs_the_command_the_fast_parser_takes():
    """The hook's entry is `paperlint preflight ARGS` with ARGS this parser reads."""
    manifest = (Path(__file__).resolve().parents[2] / ".pre-commit-hooks.yaml").read_text()
    (entry,) = [line.split(":", 1)[1].split() for line in manifest.splitlines() if "entry:" in line]
    assert entry[0] == "paperlint" and fast.parse(entry[1:]) is not None


@pytest.mark.parametrize("start", [FAST, TYPER], ids=["fast", "typer"])
def test_both_paths_run_the_exit_handlers_and_flush_before_they_leave(tmp_path, start):
    """Each leaves without the interpreter's teardown (`boundary.exit_with(finished=True)`),
    after the atexit handlers (preflight's cache of compiled regexes, coverage, Ray's) and with
    every byte of a long output written."""
    repo = _repo(tmp_path)
    flag = tmp_path / "handler-ran"
    code = f"import atexit, pathlib; atexit.register(pathlib.Path({str(flag)!r}).touch); {start}"
    out, err, status, _ = _run(code, ["preflight", "paper.tex", "--format", "json"], repo)
    assert flag.exists()
    assert status == 0 and json.loads(out)["results"], err


def test_a_reader_that_closes_the_pipe_ends_both_paths_alike(tmp_path):
    """`paperlint preflight … | head -c 1`: the reader goes after one byte of 1.6 MB; the
    fast path's exit ends as the typer path's does (exit 0, nothing on stderr, before the fast
    exit too)."""
    repo = _repo(tmp_path)
    (repo / "long.tex").write_text(
        CLEAN.replace(
            "\\end{document}", "\\begin{lemma}x\\end{lemma}\n" * 3000 + "\\end{document}"
        ),
        encoding="utf-8",
    )
    codes = []
    for start in (FAST, TYPER):
        reader = subprocess.Popen(
            [sys.executable, "-c", start, "preflight", "long.tex", "--format", "json"],
            cwd=repo,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert reader.stdout is not None
        reader.stdout.read(1)
        reader.stdout.close()
        reader.wait(timeout=60)
        codes.append(reader.returncode)
    assert codes[0] == codes[1], codes


@pytest.mark.parametrize("start", [FAST, TYPER], ids=["fast", "typer"])
def test_both_paths_leave_without_the_teardown(tmp_path, start):
    """What only the interpreter's teardown would run (the finalizer of an object `__main__`
    holds) does not run: the exit is `os._exit`, after the handlers."""
    repo = _repo(tmp_path)
    flag = tmp_path / "finalized"
    held = f"type('Held', (), {{'__del__': lambda self: pathlib.Path({str(flag)!r}).touch()}})()"
    code = f"import pathlib; held = {held}; {start}"
    _, err, status, _ = _run(code, ["preflight", "paper.tex", "-q"], repo)
    assert status == 0, err
    assert not flag.exists()
    # the same object, and an ordinary exit, does run it (so the check above can fail)
    _run(f"import pathlib; held = {held}", [], repo)
    assert flag.exists()


@pytest.mark.parametrize("start", [FAST, TYPER], ids=["fast", "typer"])
def test_a_file_left_open_for_writing_fails_the_command_under_the_suite(tmp_path, start):
    """The exit without teardown loses what a file left open holds in its buffer: under the
    suite (`PAPERLINT_CHECK_EXIT`, set for every test) the command says which file and ends
    with INTERNAL, so any test of a command that leaks one fails."""
    repo = _repo(tmp_path)
    leaked = tmp_path / "leaked.txt"
    code = f"f = open({str(leaked)!r}, 'w'); f.write('tail'); {start}"
    out, err, status, _ = _run(code, ["preflight", "paper.tex", "-q"], repo)
    assert status == ExitCode.INTERNAL, (out, err)
    assert f"still open for writing at exit: ['{leaked}']" in err
    assert leaked.read_text() == ""  # what the exit lost: why it is a defect
    closed = f"open({str(leaked)!r}, 'w').close(); {start}"
    assert _run(closed, ["preflight", "paper.tex", "-q"], repo)[2] == 0


@pytest.mark.parametrize("start", [FAST, TYPER], ids=["fast", "typer"])
def test_a_thread_still_running_is_waited_for_as_at_an_ordinary_exit(tmp_path, start):
    """The exit without teardown is taken only when no thread the interpreter would join is
    left running: such a thread ends its work first."""
    repo = _repo(tmp_path)
    flag = tmp_path / "thread-finished"
    late = f"lambda: (time.sleep(0.5), pathlib.Path({str(flag)!r}).touch())"
    code = f"import pathlib, threading, time; threading.Thread(target={late}).start(); {start}"
    _, err, status, _ = _run(code, ["preflight", "paper.tex", "-q"], repo)
    assert status == 0, err
    assert flag.exists()

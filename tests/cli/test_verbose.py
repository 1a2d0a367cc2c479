"""`-v/--verbose` is accepted by every command, after the command name as before it."""

import logging
from pathlib import Path

import pytest
import typer.main

from paperlint.cli.root import _register_commands, app, run

PAPER = Path(__file__).resolve().parents[2] / "fixtures" / "sample-variance" / "paper.tex"


def _commands():
    _register_commands()
    found = []

    def walk(command, path):
        if getattr(command, "commands", None):
            for name, sub in command.commands.items():
                walk(sub, (*path, name))
        else:
            found.append((" ".join(path), command))

    walk(typer.main.get_command(app), ())
    return found


COMMANDS = _commands()


def test_every_command_is_listed():
    names = {name for name, _ in COMMANDS}
    assert {"check", "preflight", "report", "lean scan", "library list", "runs add"} <= names
    assert len(names) >= 21


@pytest.mark.parametrize(("name", "command"), COMMANDS, ids=[n for n, _ in COMMANDS])
def test_each_command_accepts_v_and_verbose(name, command, capsys):
    option = next((p for p in command.params if "--verbose" in p.opts), None)
    assert option is not None and "-v" in option.opts, name
    assert run([*name.split(), "--help"]) == 0
    assert "--verbose" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv",
    [
        ["preflight", str(PAPER), "-v"],
        ["preflight", "-v", str(PAPER)],
        ["preflight", str(PAPER), "--verbose"],
        ["-v", "preflight", str(PAPER)],
    ],
    ids=["after", "between", "long", "global"],
)
def test_verbose_logs_progress_wherever_it_is_given(argv, caplog):
    assert run(argv) == 0
    assert "preflight: 5 results in paper.tex" in caplog.messages
    assert logging.getLogger().level == logging.INFO


def test_without_verbose_nothing_is_logged_even_after_a_verbose_run(caplog):
    assert run(["preflight", str(PAPER), "-v"]) == 0
    caplog.clear()
    assert run(["preflight", str(PAPER)]) == 0  # each run sets the level afresh
    assert "preflight: 5 results in paper.tex" not in caplog.messages

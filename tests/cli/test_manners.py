"""Linter manners shared by every command: formats, refusals, colour, progress, folders."""

import io
import json
import shutil
from pathlib import Path

import pytest

from paperlint.cli.plain import colour, paint
from paperlint.cli.progress import StatusLine, status_text
from paperlint.cli.root import run

ROOT = Path(__file__).resolve().parents[2]
PAPER = ROOT / "fixtures" / "sample-variance" / "paper.tex"

FORMAT_COMMANDS = [
    ["preflight", str(PAPER)],
    ["check", str(PAPER)],
    ["resume", "WS"],
    ["status", "WS"],
    ["validate", "WS"],
    ["replay", "WS"],
    ["revise", "WS", str(PAPER), "--dry-run"],
    ["doctor"],
    ["setup", "--dry-run"],
    ["lean", "scan", "WS"],
    ["report", "WS"],
]


@pytest.mark.parametrize("command", FORMAT_COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_an_unknown_format_is_refused_with_exit_2(command, tmp_path, capsys):
    argv = [str(tmp_path) if part == "WS" else part for part in command]
    assert run([*argv, "--format", "yaml"]) == 2
    err = capsys.readouterr().err
    assert "yaml" in err and "json" in err
    assert not any(tmp_path.iterdir())  # nothing written


@pytest.mark.parametrize("command", FORMAT_COMMANDS[:-1], ids=lambda c: " ".join(c[:2]))
def test_help_lists_the_format_choices(command, capsys):
    assert run([*command[: 2 if command[0] == "lean" else 1], "--help"]) == 0
    out = capsys.readouterr().out
    assert "text" in out and "json" in out


def _paper_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "mypaper"
    folder.mkdir()
    shutil.copy(PAPER, folder / "paper.tex")
    return folder


def test_check_of_a_non_tex_file_is_refused_before_anything_is_written(tmp_path, capsys):
    notes = tmp_path / "notes.txt"
    notes.write_text("\\begin{lemma}x\\end{lemma}")
    for command in (["check", str(notes)], ["preflight", str(notes)]):
        assert run(command) == 2
        assert "not a paper" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_check_dot_names_its_workspace_after_the_folder(tmp_path, monkeypatch, capsys):
    folder = _paper_folder(tmp_path)
    monkeypatch.chdir(folder)
    # no model is configured here: every result is unfinished, quickly and honestly
    rc = run(["check", ".", "--format", "json", "--quiet"])
    payload = json.loads(capsys.readouterr().out)
    assert rc == 4 and payload["exit_code"] == 4 and payload["ok"] is True
    assert payload["counts"] == {"unfinished": 4}
    assert (tmp_path / "mypaper.paperlint" / "results.json").is_file()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]
    assert not [p for p in folder.iterdir() if p.name.startswith(".")]


def test_resume_speaks_json_too(tmp_path, capsys):
    folder = _paper_folder(tmp_path)
    assert run(["check", str(folder / "paper.tex"), "--quiet"]) == 4
    capsys.readouterr()
    assert run(["resume", str(folder / "paper.paperlint"), "--format", "json", "-q"]) == 4
    assert json.loads(capsys.readouterr().out)["counts"] == {"unfinished": 4}


def test_setup_dry_run_speaks_json(capsys):
    assert run(["setup", "--dry-run", "--format", "json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["ok"] and payload["dry_run"] and payload["steps"]
    assert all({"what", "cmd", "cwd"} <= set(step) for step in payload["steps"])


def test_lean_scan_accepts_a_folder(tmp_path, capsys):
    (tmp_path / "A").mkdir()
    (tmp_path / "A" / "Good.lean").write_text("theorem t : True := trivial\n")
    (tmp_path / "Bad.lean").write_text("theorem u : False := by sorry\n")
    (tmp_path / ".lake" / "x").mkdir(parents=True)
    (tmp_path / ".lake" / "x" / "Dep.lean").write_text("theorem v : False := by sorry\n")
    assert run(["lean", "scan", str(tmp_path), "--format", "json"]) == 1
    findings = json.loads(capsys.readouterr().out)
    files = {Path(f["file"]).name for f in findings}
    assert "Bad.lean" in files and "Dep.lean" not in files
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run(["lean", "scan", str(empty)]) == 2


def test_an_undefined_reference_is_a_diagnostic(tmp_path, capsys):
    paper = tmp_path / "p.tex"
    paper.write_text(
        "\\documentclass{article}\\newtheorem{lemma}{Lemma}\\begin{document}\n"
        "\\begin{lemma}\\label{lem:a}x\\end{lemma}\n"
        "By Lemma~\\ref{lem:a} and Lemma~\\ref{lem:missing}.\n\\end{document}\n"
    )
    assert run(["preflight", str(paper), "-q"]) == 0
    err = capsys.readouterr().err
    assert "p.tex:3:32: warning: reference to undefined label 'lem:missing'" in err
    assert "lem:a'" not in err


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_only_on_a_terminal_and_never_with_no_color(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert colour(_Tty()) and not colour(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not colour(_Tty())
    assert paint("error", "error", enabled=False) == "error"
    assert paint("error", "error", enabled=True).startswith("\033[")


def test_status_line_shows_done_elapsed_spend_and_eta():
    text = status_text("prove lem:a", done=2, total=10, elapsed=60, spend=(7, 0.5))
    assert text == "[2/10] · prove lem:a · elapsed 1:00 · 7 calls, $0.50 known · ETA 4:00"
    assert "ETA" not in status_text("x", done=0, total=3, elapsed=5, spend=None)


def test_status_line_is_live_on_a_terminal_and_plain_lines_in_a_log():
    ticks = iter([0.0, 1.0, 2.0, 3.0, 4.0, 5.0])
    tty = _Tty()
    line = StatusLine(tty, spend=lambda: (3, 0.25), clock=lambda: next(ticks))
    line.update("draft lem:a (attempt 1)", done=0, total=4)
    line.update("prove lem:a (attempt 1)", done=1, total=4)
    assert tty.getvalue().count("\r\033[K") == 2 and "\n" not in tty.getvalue()
    assert "3 calls, $0.25 known" in tty.getvalue() and "ETA" in tty.getvalue()
    log = io.StringIO()
    ticks = iter([0.0, 1.0, 1.0, 2.0, 2.0, 70.0, 70.0])
    plain = StatusLine(log, spend=lambda: (3, 0.25), clock=lambda: next(ticks))
    plain.update("draft lem:a (attempt 1)", done=0, total=4)
    plain.update("prove lem:a (attempt 1)", done=1, total=4)
    plain.finish(done=4, total=4)
    assert log.getvalue().splitlines() == [
        "[0/4] · draft lem:a (attempt 1) · elapsed 0:01 · 3 calls, $0.25 known",
        "[1/4] · prove lem:a (attempt 1) · elapsed 0:02 · 3 calls, $0.25 known · ETA 0:06",
        "[4/4] · finished · elapsed 1:10 · 3 calls, $0.25 known",
    ]

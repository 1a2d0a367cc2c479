"""The CLI's edges (#28 item 7): a newer paperlint's workspace, a paper with nothing to check,
`--format json` everywhere with JSON errors, help text as written, progress in a log, shell
completion, and the MCP tools' annotations."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from paperlint.cli.root import _register_commands, command, run
from paperlint.exitcodes import ExitCode

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "fixtures" / "sample-variance"
PROPORTIONS = ROOT / "fixtures" / "proportions"


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    ws = tmp_path_factory.mktemp("edges") / "ws"
    argv = ["check", str(EXAMPLE / "paper.tex"), "--replay", str(EXAMPLE / "replay")]
    assert run([*argv, "--workdir", str(ws), "-q"]) == 1
    return ws


@pytest.fixture
def newer(checked: Path, tmp_path: Path) -> Path:
    """The checked workspace, its results.json as a later paperlint would write it."""
    ws = tmp_path / "newer"
    shutil.copytree(checked, ws)
    results = json.loads((ws / "results.json").read_text(encoding="utf-8"))
    (ws / "results.json").write_text(json.dumps({**results, "schema": "paperlint.results/9"}))
    return ws


@pytest.mark.parametrize(
    "argv",
    [
        ["status"],
        ["resume"],
        ["report"],
        ["migrate"],
        ["validate"],
        ["revise", str(EXAMPLE / "paper.tex"), "--dry-run"],
    ],
    ids=lambda a: a[0],
)
def test_a_newer_paperlints_workspace_says_upgrade(
    newer: Path, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    before = (newer / "results.json").read_bytes()
    assert run([argv[0], str(newer), *argv[1:]]) == ExitCode.USAGE
    err = capsys.readouterr().err
    assert "made by a newer paperlint (paperlint.results/9" in err
    assert "upgrade paperlint" in err
    assert (newer / "results.json").read_bytes() == before


def test_a_newer_workspace_under_format_json_is_a_json_error(
    newer: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["status", str(newer), "--format", "json"]) == ExitCode.USAGE
    payload = json.loads(capsys.readouterr().out)
    assert payload["ok"] is False and payload["exit_code"] == 2
    assert payload["error"]["kind"] == "input"
    assert payload["error"]["path"] == str(newer / "results.json")
    assert "upgrade paperlint" in payload["error"]["hint"]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "\\documentclass{article}\\begin{document}Only prose.\\end{document}\n",
        "\\documentclass{article}\\newtheorem{definition}{Definition}\\begin{document}"
        "\\begin{definition}A square is $x^2$.\\end{definition}\\end{document}\n",
    ],
    ids=["empty", "prose", "definitions-only"],
)
def test_a_paper_with_nothing_to_check_warns_and_exits_5(
    tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    paper = tmp_path / "paper.tex"
    paper.write_text(text, encoding="utf-8")
    assert run(["check", str(paper), "-q"]) == ExitCode.NOTHING_TO_CHECK == 5
    assert "warning: the paper holds no numbered theorem" in capsys.readouterr().err
    assert run(["check", str(paper), "-q", "--fresh", "--format", "json"]) == 5
    payload = json.loads(capsys.readouterr().out)
    assert payload["exit_code"] == 5 and payload["warning"].startswith("the paper holds no")


def _leaves() -> dict[str, object]:
    _register_commands()
    found: dict[str, object] = {}

    def walk(cmd: object, path: tuple[str, ...]) -> None:
        subs = getattr(cmd, "commands", None)
        if subs:
            for name, sub in subs.items():
                walk(sub, (*path, name))
        else:
            found[" ".join(path)] = cmd

    walk(command(), ())
    return found


def test_every_command_takes_format_json() -> None:
    """`mcp` is the one exception: it speaks JSON-RPC on stdio."""
    lacking = [
        name
        for name, cmd in _leaves().items()
        if "--format" not in {o for p in cmd.params for o in p.opts}  # type: ignore[attr-defined]
    ]
    assert lacking == ["mcp"]


@pytest.mark.parametrize(
    "argv",
    [
        ["library", "show", "PaperlintLib.absent"],
        ["library", "remove", "PaperlintLib.absent"],
        ["migrate", "/nonexistent/ws"],
        ["lean", "goals", "/nonexistent/file.lean"],
        ["lean", "search", "add_comm", "--index", "/nonexistent/index.jsonl", "--no-lean"],
        ["config", "/nonexistent/paper.tex"],
        ["report", "/nonexistent/ws"],
    ],
    ids=lambda a: " ".join(a[:2]),
)
def test_errors_under_format_json_are_json(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code = run([*argv, "--format", "json"])
    assert code == ExitCode.USAGE
    payload = json.loads(capsys.readouterr().out)
    assert payload == {**payload, "ok": False, "exit_code": 2}
    assert payload["error"]["message"]


def test_migrate_and_library_answer_in_json(
    checked: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(checked, ws)
    assert run(["migrate", str(ws), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["migrated_from"] is None
    argv = ["library", "promote", str(ws), "lem_mean_max_s1", "--yes", "--format", "json"]
    assert run(argv) == 0
    promoted = json.loads(capsys.readouterr().out)["promoted"]["name"]
    assert run(["library", "show", promoted, "--format", "json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert "lem_mean_max_s1" in shown["module_text"]
    assert run(["library", "remove", promoted, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"removed": promoted}


@pytest.mark.parametrize(
    ("argv", "literal"),
    [(["mcp", "--help"], "paperlint[mcp]"), (["report", "--help"], "paperlint[blueprint]")],
)
def test_help_shows_extras_literally(
    argv: list[str], literal: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(argv) == 0
    assert literal in " ".join(capsys.readouterr().out.split())


def test_progress_in_a_log_says_elapsed_spend_eta_and_ends_at_n_of_n(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["check", str(PROPORTIONS / "paper.tex"), "--replay", str(PROPORTIONS / "replay")]
    assert run([*argv, "--workdir", str(tmp_path / "ws"), "--jobs", "1"]) == 1
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("[")]
    assert lines and all("elapsed " in line and " calls, $" in line for line in lines)
    assert any(" · ETA " in line for line in lines)
    assert lines[-1].startswith("[4/4] · finished · elapsed ")
    assert all(not line.startswith("[4/4]") for line in lines[:-1])


def test_shell_completion() -> None:
    script = Path(sys.executable).parent / "paperlint"  # the console script (its name counts)
    if not script.is_file():
        pytest.skip("no paperlint console script beside this Python")
    env = {**os.environ, "_PAPERLINT_COMPLETE": "complete_bash", "COMP_CWORD": "1"}
    done = subprocess.run(
        [str(script)],
        env={**env, "COMP_WORDS": "paperlint rev"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stdout.split() == ["revise"]
    assert run(["--show-completion", "bash"]) == 0


def test_mcp_tools_say_what_they_touch() -> None:
    from paperlint.cli.mcp_cmd import verbs
    from paperlint.mcp.tools import DESTRUCTIVE, EFFECTS, READ_ONLY

    found = verbs()
    assert {v.path and " ".join(v.path) for v in found.values()} == set(EFFECTS)
    assert found["status"].effect == found["validate"].effect == READ_ONLY
    assert found["check"].effect == found["library_remove"].effect == DESTRUCTIVE
    report = found["report"]
    assert "format" in {p.name for p in report.params} and not report.has_format
    assert report.argv({"workspace": "ws", "format": "md"}) == ["report", "ws", "--format", "md"]
    pytest.importorskip("mcp")
    from paperlint.mcp.server import _tool

    tool = _tool(found["status"])
    assert tool.annotations is not None and tool.annotations.read_only_hint is True
    assert _tool(found["revise"]).annotations.destructive_hint is True  # type: ignore[union-attr]

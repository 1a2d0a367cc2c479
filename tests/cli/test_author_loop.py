"""An author's loop on the command line: check a paper, then ask about the check the way an
author does, with the paper, its folder or a folder inside the workspace instead of the
workspace itself, from another folder, with spaces in the paths. Every answer names the file,
what went wrong and the next command. Offline: the example's replay (fixtures/sample-variance)."""

from __future__ import annotations

import json
import re
import shlex
import shutil
from pathlib import Path

import pytest

from paperlint.cli.root import run

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "fixtures" / "sample-variance"


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An author's folder, its name with a space, with the example checked beside the paper."""
    folder = tmp_path_factory.mktemp("author") / "my paper"
    folder.mkdir()
    (folder / ".git").mkdir()  # the config search stops here
    shutil.copyfile(EXAMPLE / "paper.tex", folder / "paper.tex")
    argv = ["check", str(folder / "paper.tex"), "--replay", str(EXAMPLE / "replay"), "-q"]
    assert run(argv) == 1  # the example has issues
    return folder


@pytest.mark.parametrize("command", ["status", "report", "resume", "validate", "replay"])
@pytest.mark.parametrize("given", ["paper.tex", ".", "paper.paperlint/source"])
def test_a_command_given_the_paper_names_its_check(
    checked: Path,
    command: str,
    given: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`paperlint status paper.tex` (the paper, its folder, or a folder inside the check)
    is not a workspace, but the check is right there: the error says which folder to pass,
    not to run a check that already exists."""
    monkeypatch.chdir(checked)
    before = (checked / "paper.paperlint" / "results.json").read_bytes()
    assert run([command, given, "--format", "json"]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["path"] == given
    assert error["message"] == "not a paperlint workspace (no results.json and inventory.json)"
    assert error["hint"] == "the check is in paper.paperlint: pass that folder"
    assert (checked / "paper.paperlint" / "results.json").read_bytes() == before


def test_a_missing_workspace_says_how_to_make_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["status", str(tmp_path / "gone.paperlint")]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / 'gone.paperlint'}: error: no such file or folder" in err
    assert "pass the folder `paperlint check PAPER` wrote (PAPER.paperlint/)" in err


def _commands(text: str) -> list[list[str]]:
    """Each `paperlint …` command a message tells the user to type, split as a shell would."""
    return [shlex.split(m) for m in re.findall(r"`(paperlint [^`]*)`", text)]


def test_the_commands_a_stale_check_suggests_run_when_pasted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The paper, in a folder whose name has a space, is edited after its check; from another
    folder, the refusal's hint and then revise's are pasted into a shell as they are printed."""
    folder = tmp_path / "my paper"
    folder.mkdir()
    (folder / ".git").mkdir()
    paper = folder / "paper.tex"
    shutil.copyfile(EXAMPLE / "paper.tex", paper)
    replay = ["--replay", str(EXAMPLE / "replay"), "-q"]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert run(["check", str(paper), *replay]) == 1
    paper.write_text(paper.read_text(encoding="utf-8").replace("$x \\le x^2$", "$x \\le 2x^2$"))
    capsys.readouterr()
    assert run(["resume", str(folder / "paper.paperlint")]) == 2
    revise, resume = _commands(capsys.readouterr().err)
    assert revise == ["paperlint", "revise", str(folder / "paper.paperlint"), str(paper)]
    assert run(revise[1:]) == 0
    (pasted,) = _commands(capsys.readouterr().out)
    assert pasted == resume == ["paperlint", "resume", str(folder / "paper.paperlint")]
    assert run([*pasted[1:], "-q"]) in (1, 4)  # the edited result is re-checked
    capsys.readouterr()
    assert run(["status", str(folder / "paper.paperlint"), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["stale"] == []


def test_the_reports_title_leaves_out_the_titles_notes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A `\\thanks` whose text holds braces (an accent) was left in the report's title, cut
    at 300 characters mid-word, and elsarticle's `\\tnoteref{key}` left its key."""
    (tmp_path / ".git").mkdir()
    paper = tmp_path / "paper.tex"
    title = (
        r"\title{On Means$^\star$\thanks{$\star$ We thank B.~P\"{o}tscher and {many} others.}"
        r"\\ of Two Numbers\tnoteref{t1}}"
    )
    text = (EXAMPLE / "paper.tex").read_text(encoding="utf-8")
    paper.write_text(re.sub(r"\\title\{[^}]*\}", lambda _: title, text), encoding="utf-8")
    assert title in paper.read_text(encoding="utf-8")
    assert run(["check", str(paper), "-q"]) == 4  # no model here: every result unfinished
    capsys.readouterr()
    assert run(["report", str(tmp_path / "paper.paperlint"), "--format", "md"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == "# paperlint report: On Means of Two Numbers"


def test_the_sarif_of_a_changed_paper_marks_its_stale_issue(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Proposition 2.3 is corrected after the check: code scanning's SARIF showed its ERROR as
    current, with no word of the change (the Markdown and HTML reports mark it)."""
    (tmp_path / ".git").mkdir()
    paper = tmp_path / "paper.tex"
    shutil.copyfile(EXAMPLE / "paper.tex", paper)
    assert run(["check", str(paper), "--replay", str(EXAMPLE / "replay"), "-q"]) == 1
    text = paper.read_text(encoding="utf-8")
    paper.write_text(text.replace("number $x$, $x \\le x^2$", "number $x \\ge 1$, $x \\le x^2$"))
    capsys.readouterr()
    assert run(["report", str(tmp_path / "paper.paperlint"), "--format", "sarif"]) == 0
    sarif = json.loads(capsys.readouterr().out)["runs"][0]
    assert sarif["properties"]["stale"].startswith("STALE: the paper changed since this check")
    by_id = {
        r["properties"]["resultId"]: r
        for r in sarif["results"]
        if "resultId" in r.get("properties", {})
    }
    changed, kept = by_id["prop:square"], by_id["thm:product"]
    assert changed["properties"]["stale"] == "statement changed (revise will re-draft)"
    assert changed["message"]["text"].startswith(
        "STALE, statement changed (revise will re-draft): this verdict is about the old text. "
        "Proposition 2.3: ERROR"
    )
    assert "stale" not in kept["properties"] and "STALE" not in kept["message"]["text"]


def test_validate_and_replay_of_a_changed_paper_say_the_verdicts_are_about_the_old_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`every verdict re-derives` is true of the evidence, which is about the text as checked:
    after an edit both commands said it and nothing more, as if the verdicts were current."""
    (tmp_path / ".git").mkdir()
    paper = tmp_path / "paper.tex"
    shutil.copyfile(EXAMPLE / "paper.tex", paper)
    workspace = str(tmp_path / "paper.paperlint")
    assert run(["check", str(paper), "--replay", str(EXAMPLE / "replay"), "-q"]) == 1
    capsys.readouterr()
    assert run(["validate", workspace, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["stale"] is None
    text = paper.read_text(encoding="utf-8")
    paper.write_text(text.replace("number $x$, $x \\le x^2$", "number $x \\ge 1$, $x \\le x^2$"))
    assert run(["validate", workspace]) == 0
    out, err = capsys.readouterr()
    assert out.endswith("every verdict re-derives\n")
    assert err.startswith("STALE: the paper changed since this check (paper.tex); its verdicts")
    assert run(["replay", workspace, "--format", "json"]) == 4  # no Lean here
    assert json.loads(capsys.readouterr().out)["stale"].startswith("STALE: the paper changed")


def test_batch_again_shows_no_counts_for_a_paper_it_did_not_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Batch run a second time: the paper is not checked (its check exists). Its row said 0
    of every verdict and broke the table over two lines (the error's hint on its own)."""
    (tmp_path / ".git").mkdir()
    paper = tmp_path / "paper.tex"
    shutil.copyfile(EXAMPLE / "paper.tex", paper)
    assert run(["batch", str(paper), "-q"]) == 4  # no model here: every result unfinished
    capsys.readouterr()
    assert run(["batch", str(paper), "-q"]) == 2
    header, row, total = capsys.readouterr().out.splitlines()
    assert row.split()[:7] == [str(paper), "live", "-", "-", "-", "-", "2"]
    assert row.endswith(
        "error: a check of this paper already exists; hint: continue it with "
        f"`paperlint resume {tmp_path / 'paper.paperlint'}`, or start over with --fresh"
    )


@pytest.mark.parametrize(
    ("argv", "path", "message"),
    [
        (["preflight", "PAPER", "-o", "FOLDER"], "FOLDER", "is a folder, where a file is written"),
        (
            ["preflight", "PAPER", "-o", "PAPER/inventory.json"],
            "PAPER",
            "is a file, where a folder is needed",
        ),
        (["report", "WS", "--format", "md", "-o", "FOLDER"], "FOLDER", "is a folder"),
        (
            ["report", "WS", "-o", "PAPER/report"],
            "PAPER/report",
            "a part of this path is a file, where a folder is needed",
        ),
    ],
    ids=["preflight-o-folder", "preflight-o-under-a-file", "report-o-folder", "report-o-file"],
)
def test_an_output_path_that_cannot_be_written_is_named_not_a_crash(
    checked: Path,
    tmp_path: Path,
    argv: list[str],
    path: str,
    message: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`-o` naming a folder for a file, or a path under a file: an internal error with a crash
    log (exit 3) before; now the path and what to do (exit 2)."""
    names = {
        "PAPER": str(checked / "paper.tex"),
        "WS": str(checked / "paper.paperlint"),
        "FOLDER": str(tmp_path),
    }
    for name, value in names.items():
        argv = [a.replace(name, value) for a in argv]
        path = path.replace(name, value)
    capsys.readouterr()
    assert run([*argv, "--format", "json"] if argv[0] == "preflight" else argv) == 2
    out, err = capsys.readouterr()
    assert f"{path}: error: {message}" in err
    assert "hint: give a new name, or a path whose folders are folders" in err
    assert "internal error" not in err


def test_a_deleted_label_is_named_as_the_reason_a_result_is_redone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Deleting `\\label{prop:square}` changes nothing the paper says, but the result's id and
    the text its records name: revise redoes it (7 model calls here) and said only "statement
    changed", which the author had not done."""
    (tmp_path / ".git").mkdir()
    paper = tmp_path / "paper.tex"
    shutil.copyfile(EXAMPLE / "paper.tex", paper)
    workspace = str(tmp_path / "paper.paperlint")
    assert run(["check", str(paper), "--replay", str(EXAMPLE / "replay"), "-q"]) == 1
    paper.write_text(paper.read_text(encoding="utf-8").replace("\\label{prop:square}", ""))
    capsys.readouterr()
    assert run(["revise", workspace, str(paper), "--dry-run", "--format", "json"]) == 0
    (reset,) = json.loads(capsys.readouterr().out)["reset"]
    assert reset == {
        "id": "proposition:2.3",
        "action": "re-draft",
        "why": "only a \\label added or removed in the statement (put it back to keep the "
        "verdict); its id changed (prop:square -> proposition:2.3): its records and events "
        "name the old one",
    }


def _audits(workspace: Path, rid: str) -> dict[str, bytes]:
    folder = workspace / "audits" / rid.replace(":", "_")
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_a_renamed_label_keeps_its_verdict_and_validate_re_derives_every_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`\\label{prop:square}` renamed `prop:sq`, with its `\\ref`s. Once, revise carried
    the verdict over under the new id while its gate, evidence files and events named the old
    one: validate failed with 11 findings. Then the result was redone (7 model calls). Now its
    records carry over and validate follows the rename (`records.history`): no model call, the
    same verdict, the others untouched."""
    (tmp_path / ".git").mkdir()
    paper = tmp_path / "paper.tex"
    shutil.copyfile(EXAMPLE / "paper.tex", paper)
    workspace = tmp_path / "paper.paperlint"
    ws = str(workspace)
    assert run(["check", str(paper), "--replay", str(EXAMPLE / "replay"), "-q"]) == 1
    before = {r["id"]: r for r in json.loads((workspace / "results.json").read_text())["results"]}
    assert before["prop:square"]["verdict"] == "issue"
    kept = {rid: _audits(workspace, rid) for rid in before if rid != "prop:square"}
    text = paper.read_text(encoding="utf-8")
    assert "\\label{prop:square}" in text  # no result refers to it (tests/revise: users)
    paper.write_text(text.replace("prop:square", "prop:sq"), encoding="utf-8")
    capsys.readouterr()
    assert run(["status", ws, "--format", "json"]) == 0  # before revise: the paper changed
    marked = {r["id"]: r["stale"] for r in json.loads(capsys.readouterr().out)["results"]}
    assert [rid for rid, why in marked.items() if why] == []

    assert run(["revise", ws, str(paper), "--format", "json"]) == 0
    plan = json.loads(capsys.readouterr().out)
    assert plan["reset"] == []
    assert plan["estimate"]["model_calls"] == 0
    assert run(["validate", ws]) == 0
    capsys.readouterr()
    assert run(["status", ws, "--format", "json"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["stale"] == []
    verdicts = {r["id"]: r["verdict"] for r in status["results"]}
    unrelated = {k: r["verdict"] for k, r in before.items() if k != "prop:square"}
    assert verdicts == {**unrelated, "prop:sq": "issue"}

    assert run(["resume", ws, "-q"]) == 1  # nothing to do; the issues stand
    capsys.readouterr()
    assert run(["validate", ws]) == 0
    after = {r["id"]: r for r in json.loads((workspace / "results.json").read_text())["results"]}
    assert (after["prop:sq"]["verdict"], after["prop:sq"]["issue"]["class"]) == ("issue", "ERROR")
    report = (workspace / "report" / "report.md").read_text(encoding="utf-8")
    assert "| prop:sq (was prop:square) | 2.3 | 2.3 |" in report  # since the previous version
    for rid, files in kept.items():
        assert after[rid] == before[rid]
        assert _audits(workspace, rid) == files


def test_status_says_when_the_checked_paper_is_gone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The author renames paper.tex and edits the new file: nothing compared the new file, and
    status showed every verdict as current without a word that the paper it checked is gone."""
    (tmp_path / ".git").mkdir()
    paper = tmp_path / "paper.tex"
    shutil.copyfile(EXAMPLE / "paper.tex", paper)
    workspace = tmp_path / "paper.paperlint"
    assert run(["check", str(paper), "--replay", str(EXAMPLE / "replay"), "-q"]) == 1
    paper.rename(tmp_path / "paper-v2.tex")
    capsys.readouterr()
    assert run(["status", str(workspace), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["stale"] == [
        f"paper-gone: {paper} (moved? `paperlint revise {workspace} NEW_PAPER` checks it where "
        "it is now)"
    ]

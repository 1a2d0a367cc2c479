"""The work folder as a user meets it: odd paths, a running check, a half-made folder, and
validated `--until` values."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from paperlint.cli.root import run
from paperlint.records import WorkspaceLock
from tests.engine.conftest import check_argv, example


def _check(workdir, *more):
    return [*check_argv("sample-variance", workdir), *more]


@pytest.mark.parametrize("where", ["file", "under-file", "proc"])
def test_an_unusable_workdir_is_an_input_error_naming_it(tmp_path, capsys, where):
    target = {
        "file": tmp_path / "a-file",
        "under-file": tmp_path / "a-file" / "ws",
        "proc": Path("/proc/self/paperlint-ws"),
    }[where]
    (tmp_path / "a-file").write_text("not a folder")
    assert run(_check(target)) == 2
    err = capsys.readouterr().err
    assert str(target) in err or str(target.parent) in err
    assert "internal error" not in err


def test_fresh_does_not_delete_a_check_that_is_running(tmp_path, capsys):
    workdir = tmp_path / "ws"
    assert run(check_argv("sample-variance", workdir)) == 1
    before = sorted(p.name for p in workdir.iterdir())
    with WorkspaceLock(workdir):  # as a running check holds it
        capsys.readouterr()
        assert run(_check(workdir, "--fresh")) == 2
        assert "another paperlint process" in capsys.readouterr().err
    assert sorted(p.name for p in workdir.iterdir()) == before
    assert run(_check(workdir, "--fresh")) == 1  # once it has finished, --fresh replaces it


def test_a_folder_left_by_a_very_early_stop_is_named_and_replaceable(tmp_path, capsys):
    workdir = tmp_path / "ws"
    workdir.mkdir()
    (workdir / ".paperlint-workspace").write_text("paperlint 0.1.0\n")
    (workdir / "inventory.json").write_text("{}")  # stopped before results.json
    assert run(_check(workdir)) == 2
    err = capsys.readouterr().err
    assert "stopped before its first record" in err and "--fresh" in err
    assert run(_check(workdir, "--fresh")) == 1
    assert json.loads((workdir / "results.json").read_text())["results"]


def test_until_refuses_an_unknown_stage(tmp_path, capsys):
    assert run(_check(tmp_path / "ws", "--until", "banana")) == 2
    assert not (tmp_path / "ws").exists()


def test_until_planned_plans_every_result_and_stops(tmp_path):
    workdir = tmp_path / "ws"
    assert run(_check(workdir, "--until", "planned")) in (0, 1, 4)
    events = [json.loads(x) for x in (workdir / "events.jsonl").read_text().splitlines()]
    kinds = [e["action"]["kind"] for e in events if e["type"] == "action_started"]
    assert kinds and set(kinds) == {"plan"}
    stages = {
        r["id"]: r["stage"] for r in json.loads((workdir / "results.json").read_text())["results"]
    }
    assert stages["thm:product"] == "planned" and stages["lem:mean-max"] == "planned"


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_check_inside_a_repository_leaves_git_status_as_it_was(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "paper.tex").write_bytes((example("sample-variance") / "paper.tex").read_bytes())
    git = ["git", "-C", str(repo)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "paper.tex"], check=True)

    def untracked() -> str:
        return subprocess.run(
            [*git, "status", "--porcelain", "--untracked-files=all"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout

    before = untracked()
    argv = check_argv("sample-variance", repo / "paper.paperlint")
    argv[1] = str(repo / "paper.tex")
    assert run(argv) == 1
    assert (repo / "paper.paperlint" / "results.json").is_file()
    assert untracked() == before == "A  paper.tex\n"
    # deleted by an author who commits the evidence: a resume leaves it deleted
    (repo / "paper.paperlint" / ".gitignore").unlink()
    assert run(["resume", str(repo / "paper.paperlint")]) in (0, 1)
    assert "paper.paperlint/results.json" in untracked()
    assert run([*argv, "--fresh"]) == 1  # a fresh check is a new workspace: ignored again
    assert untracked() == before

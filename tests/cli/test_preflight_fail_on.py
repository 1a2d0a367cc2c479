"""`paperlint preflight` as a paper repository's gate (#28): it finds the paper with no PATH
(`[preflight] paper`, else the main file of the current folder), fails on what an author
wants to stop a commit for (`--fail-on warning|error`, `--ignore`), and names each file from
the current folder."""

import json
from pathlib import Path

import pytest

from paperlint.cli.preflight_run import FailOn, failing
from paperlint.cli.root import run
from paperlint.preflight.model import Diagnostic
from tests.cli.papers import (
    CLEAN,
    DUPLICATE,
    EXTRA_BRACE,
    LABEL_RUNAWAY,
    RUNAWAY,
    UNBRACED,
    UNCLOSED,
    UNDEFINED,
)


def _repo(tmp_path: Path, text: str, *, where: str = "paper/main.tex") -> Path:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)  # the config walk stops at a repository's root
    paper = repo / where
    paper.parent.mkdir(parents=True, exist_ok=True)
    paper.write_text(text, encoding="utf-8")
    return repo


@pytest.mark.parametrize(
    ("text", "code", "where", "fails_on"),
    [
        (DUPLICATE, "duplicate-label", "paper/main.tex:7:12", ["warning"]),
        (UNDEFINED, "undefined-reference", "paper/main.tex:6:38", ["warning"]),
        (UNCLOSED, "unterminated-environment", "paper/main.tex:5:1", ["warning", "error"]),
        (RUNAWAY, "runaway-argument", "paper/main.tex:5:1", ["warning", "error"]),
        (UNBRACED, "unbalanced-brace", "paper/main.tex:6:35", ["warning", "error"]),
        (LABEL_RUNAWAY, "runaway-argument", "paper/main.tex:4:14", ["warning", "error"]),
        (EXTRA_BRACE, "unbalanced-brace", "paper/main.tex:6:27", ["warning", "error"]),
    ],
)
def test_what_an_author_stops_a_commit_for_fails_with_its_place(
    tmp_path, monkeypatch, capsys, text, code, where, fails_on
):
    monkeypatch.chdir(_repo(tmp_path, text))
    for level in ("warning", "error"):
        assert run(["preflight", "-q", "--fail-on", level]) == (1 if level in fails_on else 0)
        err = capsys.readouterr().err
        assert f"{where}: " in err and f"[{code}]" in err, err
    assert run(["preflight", "-q"]) == 0  # without --fail-on a diagnostic only informs


def test_a_missing_brace_after_begin_hides_nothing_after_it(tmp_path, monkeypatch, capsys):
    """`\\begin{proof` without its `}`: LaTeX stops at the paragraph's end and goes on after
    it; preflight did not stop, read the rest of the paper as the environment's name, and
    listed one lemma of two with no diagnostic (the hook let it through)."""
    monkeypatch.chdir(_repo(tmp_path, RUNAWAY))
    assert run(["preflight", "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert [r["labels"] for r in json.loads(out)["results"]] == [["lem:a"], ["lem:b"]]
    assert (
        "paper/main.tex:5:1: error: \\begin{proof Trivial. is missing its closing brace: LaTeX "
        'stops ("Paragraph ended before \\begin was complete") [runaway-argument]'
    ) in err


def test_the_hook_reads_the_paper_not_a_checks_copy_of_it(tmp_path, monkeypatch, capsys):
    """A paper three folders down, checked into `check/` at the repository's root (as
    docs/github-workflow.yml does): the workspace's `source/article.tex`, nearer the root, was
    taken for the main file, so the hook read the copy as it was checked and let a duplicate
    label in the paper through."""
    where = "papers/2024/neurips/article.tex"
    repo = _repo(tmp_path, CLEAN, where=where)
    monkeypatch.chdir(repo)
    assert run(["check", where, "--workdir", "check", "-q"]) == 4  # no model: unfinished
    assert (repo / "check" / "source" / "article.tex").is_file()
    (repo / where).write_text(DUPLICATE, encoding="utf-8")
    capsys.readouterr()
    assert run(["preflight", "-q", "--fail-on", "warning"]) == 1
    assert f"{where}:7:12: warning: label 'lem:a' multiply defined" in capsys.readouterr().err


def test_a_clean_paper_passes_and_prints_nothing(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(_repo(tmp_path, CLEAN))
    assert run(["preflight", "-q", "--fail-on", "warning"]) == 0
    assert capsys.readouterr().err == ""


def test_ignored_codes_never_fail_from_the_option_or_the_config(tmp_path, monkeypatch, capsys):
    repo = _repo(tmp_path, DUPLICATE)
    monkeypatch.chdir(repo)
    assert run(["preflight", "-q", "--fail-on", "warning", "--ignore", "duplicate-label"]) == 0
    assert "[duplicate-label]" in capsys.readouterr().err  # still printed
    (repo / "paperlint.toml").write_text('[preflight]\nignore = ["duplicate-label"]\n')
    assert run(["preflight", "-q", "--fail-on", "warning"]) == 0


def test_the_config_names_the_paper_among_several_candidates(tmp_path, monkeypatch, capsys):
    repo = _repo(tmp_path, DUPLICATE)
    (repo / "talk").mkdir()
    (repo / "talk" / "main.tex").write_text(DUPLICATE, encoding="utf-8")  # as likely a root
    monkeypatch.chdir(repo)
    assert run(["preflight", "-q", "--fail-on", "warning"]) == 2
    err = capsys.readouterr().err
    assert "several candidate main files" in err and "[preflight]" in err
    (repo / "paperlint.toml").write_text('[preflight]\npaper = "paper/main.tex"\n')
    assert run(["preflight", "-q", "--fail-on", "warning"]) == 1
    assert "paper/main.tex:7:12: warning:" in capsys.readouterr().err
    monkeypatch.chdir(repo / "talk")  # from a subfolder: found by walking up, named from here
    assert run(["preflight", "-q", "--fail-on", "warning"]) == 1
    assert "../paper/main.tex:7:12: warning:" in capsys.readouterr().err


def test_a_config_naming_no_file_is_an_input_error(tmp_path, monkeypatch, capsys):
    repo = _repo(tmp_path, CLEAN)
    (repo / "paperlint.toml").write_text('[preflight]\npaper = "gone.tex"\n')
    monkeypatch.chdir(repo)
    assert run(["preflight", "-q"]) == 2
    assert "paperlint.toml: error: [preflight] paper = 'gone.tex'" in capsys.readouterr().err


def test_strict_is_fail_on_error():
    warning = Diagnostic(severity="warning", file="a.tex", code="duplicate-label", message="m")
    error = Diagnostic(severity="error", file="a.tex", code="include-cycle", message="m")
    info = Diagnostic(severity="info", file="a.tex", code="includeonly", message="m")
    found = [warning, error, info]
    assert failing(found, FailOn.ERROR) == [error]
    assert failing(found, FailOn.WARNING) == [warning, error]
    assert failing(found, FailOn.WARNING, frozenset({"include-cycle"})) == [warning]

"""The pre-commit hook (.pre-commit-hooks.yaml) on scratch paper repositories.

pre-commit itself runs the hook. Most tests run it from a `repo: local` config carrying the
manifest's entry, files and pass_filenames, with `language: system`, so no environment is
built (they use this checkout's `paperlint`). One test is what an author does
(`pre-commit try-repo`, then `pre-commit install` and `git commit`): pre-commit builds the
hook's own environment from a copy of this checkout, as `language: python` does, except that
pip installs only paperlint itself (`PIP_NO_DEPS`, no index, no build isolation) and the
dependencies are borrowed from this venv through PYTHONPATH, which puts no `paperlint` on the
path (its editable install is a .pth finder, which PYTHONPATH folders do not run). So it runs
offline in seconds, where the index would take about 90 s per environment (try-repo builds
one in a store of its own every time).
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.papers import CLEAN, DUPLICATE
from tests.conftest import copy_checkout

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = ROOT / ".pre-commit-hooks.yaml"
pytest.importorskip("pre_commit", reason="pre-commit is not installed (pip install pre-commit)")
pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _hook() -> dict[str, object]:
    from pre_commit.clientlib import load_manifest

    (hook,) = load_manifest(str(MANIFEST))  # raises on an invalid manifest
    return hook


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "papers" / "ours").mkdir(parents=True)
    (repo / "papers" / "ours" / "main.tex").write_text(CLEAN)
    hook = _hook()
    config = f"""repos:
  - repo: local
    hooks:
      - id: {hook["id"]}
        name: {hook["name"]}
        entry: {hook["entry"]}
        language: system
        files: '{hook["files"]}'
        pass_filenames: {str(hook["pass_filenames"]).lower()}
"""
    (repo / ".pre-commit-config.yaml").write_text(config)
    for command in (["init", "-q"], ["add", "-A"]):
        subprocess.run(["git", *command], cwd=repo, check=True)
    return repo


def _run(repo: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    env["PRE_COMMIT_HOME"] = str(repo.parent / "pre-commit-home")
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--all-files", "--color", "never"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_the_manifest_runs_paperlint_preflight_on_tex_changes():
    hook = _hook()
    assert hook["id"] == "paperlint-preflight" and hook["language"] == "python"
    assert hook["entry"] == "paperlint preflight --quiet --fail-on warning"
    assert hook["pass_filenames"] is False  # the whole paper is read, not the changed files


def test_the_hook_finds_the_paper_passes_it_clean_and_fails_on_an_error(tmp_path):
    repo = _repo(tmp_path)
    clean = _run(repo)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "Passed" in clean.stdout

    paper = repo / "papers" / "ours" / "main.tex"
    paper.write_text(CLEAN.replace(r"\end{document}", "\\input{../../../outside}\n\\end{document}"))
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    broken = _run(repo)
    assert broken.returncode == 1, broken.stdout
    assert "Failed" in broken.stdout
    assert "papers/ours/main.tex:7:1: error:" in broken.stdout
    assert "[path-outside-project]" in broken.stdout


def _offline_env(home: Path) -> dict[str, str]:
    """pre-commit's (and a commit hook's) environment: its store in the test's folder, and pip
    installing the hook's package alone, its dependencies borrowed from this venv."""
    import site

    env = {**os.environ, "PRE_COMMIT_HOME": str(home)}
    # pip reads PIP_NO_BUILD_ISOLATION backwards (pypa/pip#5735): "0" turns isolation off
    env |= {"PIP_NO_DEPS": "1", "PIP_NO_INDEX": "1", "PIP_NO_BUILD_ISOLATION": "0"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in site.getsitepackages() if "site-packages" in p)
    env["PATH"] = f"{Path(sys.executable).parent}:{env['PATH']}"
    return env


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # a commit's hook runs pre-commit too: the same environment as `_pre_commit`
    env = _offline_env(repo.parent / "pre-commit-home")
    env |= {"GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@example.org"}
    env |= {"GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@example.org"}
    return subprocess.run(
        ["git", *args], cwd=repo, env=env, capture_output=True, text=True, check=False
    )


def _checkout_copy(tmp_path: Path) -> tuple[Path, str]:
    """This checkout's files (committed or not, ignored ones left out) as a one-commit repo:
    pre-commit keys the hook's environment by repository and revision, so both runs share it."""
    copy = copy_checkout(tmp_path / "paperlint")
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "paperlint"]):
        assert _git(copy, *args).returncode == 0
    return copy, _git(copy, "rev-parse", "HEAD").stdout.strip()


def _pre_commit(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *args, "--color", "never"],
        cwd=repo,
        env=_offline_env(repo.parent / "pre-commit-home"),
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


def test_try_repo_and_a_commit_stop_a_duplicate_label_and_pass_a_clean_paper(tmp_path):
    copy, rev = _checkout_copy(tmp_path)
    repo = tmp_path / "paper-repo"
    (repo / "paper").mkdir(parents=True)
    (repo / "paper" / "main.tex").write_text(DUPLICATE)
    assert _git(repo, "init", "-q").returncode == 0
    _git(repo, "add", "-A")
    # pre-commit try-repo: the hook on the staged files, as a commit would run it
    tried = _pre_commit(repo, "try-repo", str(copy), "paperlint-preflight", "--ref", rev)
    assert tried.returncode == 1, tried.stdout + tried.stderr
    expected = (
        "paper/main.tex:7:12: warning: label 'lem:a' multiply defined; "
        "LaTeX keeps this last definition [duplicate-label]"
    )
    assert "Failed" in tried.stdout and expected in tried.stdout
    # the same hook installed: the commit is refused, and goes through once the label is fixed
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {copy}\n    rev: {rev}\n    hooks:\n      - id: paperlint-preflight\n"
    )
    assert _pre_commit(repo, "install").returncode == 0
    _git(repo, "add", "-A")
    refused = _git(repo, "commit", "-m", "draft")
    assert refused.returncode == 1 and expected in refused.stdout + refused.stderr
    assert _git(repo, "rev-parse", "--verify", "HEAD").returncode != 0  # nothing committed
    (repo / "paper" / "main.tex").write_text(CLEAN)
    _git(repo, "add", "-A")
    committed = _git(repo, "commit", "-m", "fixed")
    assert committed.returncode == 0, committed.stdout + committed.stderr
    assert "paperlint preflight" in committed.stderr and "Passed" in committed.stderr

"""The pre-commit hook (.pre-commit-hooks.yaml) on a fixture paper repository.

pre-commit itself runs the hook: the manifest is validated by pre-commit's own loader, and
the hook is run from a `repo: local` config carrying the manifest's entry, files and
pass_filenames, with `language: system` so no environment is built (the test uses this
checkout's `paperlint`, as `language: python` would after installing it).
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = ROOT / ".pre-commit-hooks.yaml"
pytest.importorskip("pre_commit", reason="pre-commit is not installed (pip install pre-commit)")
pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

GOOD = r"""\documentclass{article}
\newtheorem{lemma}{Lemma}
\begin{document}
\begin{lemma}\label{lem:a} $x \le x$. \end{lemma}
\begin{proof} Trivial. \end{proof}
Lemma~\ref{lem:a} is used.
\end{document}
"""


def _hook() -> dict[str, object]:
    from pre_commit.clientlib import load_manifest

    (hook,) = load_manifest(str(MANIFEST))  # raises on an invalid manifest
    return hook


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "papers" / "ours").mkdir(parents=True)
    (repo / "papers" / "ours" / "main.tex").write_text(GOOD)
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
        args: [--strict, papers/ours/main.tex]
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
    assert str(hook["entry"]).startswith("paperlint preflight")
    assert hook["pass_filenames"] is False  # the whole paper is read, not the changed files


def test_the_hook_passes_a_clean_paper_and_fails_on_an_error_diagnostic(tmp_path):
    repo = _repo(tmp_path)
    clean = _run(repo)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "Passed" in clean.stdout

    paper = repo / "papers" / "ours" / "main.tex"
    paper.write_text(GOOD.replace(r"\end{document}", "\\input{../../../outside}\n\\end{document}"))
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    broken = _run(repo)
    assert broken.returncode == 1, broken.stdout
    assert "Failed" in broken.stdout
    assert "main.tex:7:1: error:" in broken.stdout and "[path-outside-project]" in broken.stdout

"""Config discovery as ruff and pytest do it (#28): the paper's own folder first, then upwards
to the repository root, then the user config; `paperlint config` says what was read."""

import json
import shutil
from pathlib import Path

import pytest

from paperlint.cli.root import run
from paperlint.config import COMMAND_LINE, load_config

ROOT = Path(__file__).resolve().parents[2]
FAITHFULNESS = ROOT / "fixtures" / "faithfulness"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A scratch repository holding the faithfulness fixture in `paper/` (its config inside)."""
    (tmp_path / ".git").mkdir()
    shutil.copytree(FAITHFULNESS, tmp_path / "paper")
    return tmp_path


@pytest.fixture
def user_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "user-config"
    folder.mkdir()
    monkeypatch.setenv("PAPERLINT_CONFIG_DIR", str(folder))
    return folder / "paperlint.toml"


def _verdicts(workdir: Path) -> dict[str, tuple[str | None, str | None]]:
    data = json.loads((workdir / "results.json").read_text(encoding="utf-8"))
    return {
        r["id"]: (r["verdict"], (r["issue"] or {}).get("class"))
        for r in data["results"]
        if r["verdict_bearing"]
    }


def _answer_key() -> dict[str, tuple[str | None, str | None]]:
    key = json.loads((FAITHFULNESS / "answer-key.json").read_text(encoding="utf-8"))
    return {rid: (v["verdict"], v["class"]) for rid, v in key.items()}


def test_a_folder_and_its_main_file_read_the_same_config(repo: Path, user_config: Path) -> None:
    paper = repo / "paper"
    # A config at the repository root that would change the verdicts (no double drafting):
    # the paper folder's own file is nearer and wins.
    (repo / "paperlint.toml").write_text("[faithfulness]\ndouble_draft = false\n")
    by_folder = load_config(None, start=paper)
    by_file = load_config(None, start=paper / "paper.tex")
    assert by_folder.files == by_file.files == (paper / "paperlint.toml",)
    assert by_folder.config == by_file.config
    assert by_folder.config.faithfulness.double_draft


def test_check_folder_and_check_file_give_the_same_verdicts(repo: Path, user_config: Path) -> None:
    paper = repo / "paper"
    (repo / "paperlint.toml").write_text("[faithfulness]\ndouble_draft = false\n")
    replay = ["--replay", str(paper / "replay"), "-q"]
    assert run(["check", str(paper), "--workdir", str(repo / "a"), *replay]) == 1
    assert run(["check", str(paper / "paper.tex"), "--workdir", str(repo / "b"), *replay]) == 1
    assert _verdicts(repo / "a") == _verdicts(repo / "b") == _answer_key()


def test_batch_of_a_folder_and_of_its_main_file_agree(
    repo: Path, user_config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paper = repo / "paper"
    (repo / "paperlint.toml").write_text("[faithfulness]\ndouble_draft = false\n")
    for name, target in (("a", paper), ("b", paper / "paper.tex")):
        argv = ["batch", str(target), "--replays", "--workroot", str(repo / name), "-q"]
        assert run([*argv, "--format", "json"]) == 1
        row = json.loads(capsys.readouterr().out)["papers"][0]
        assert _verdicts(Path(row["workspace"])) == _answer_key(), name


def test_user_config_is_below_the_project_file_key_by_key(repo: Path, user_config: Path) -> None:
    user_config.write_text("[budget]\nmax_calls = 7\n[automation]\nenabled = true\n")
    loaded = load_config(None, start=repo / "paper", cli={"budget": {"max_cost_usd": 2.0}})
    project = repo / "paper" / "paperlint.toml"
    assert loaded.files == (user_config, project)
    assert loaded.config.budget.max_calls == 7  # only the user file sets it
    assert loaded.config.automation.enabled is False  # the project file wins
    assert loaded.origin("budget.max_calls") == str(user_config)
    assert loaded.origin("automation.enabled") == str(project)
    assert loaded.origin("budget.max_cost_usd") == COMMAND_LINE
    assert loaded.origin("budget.prover_attempts") == "default"


def test_the_walk_stops_at_the_repository_root(tmp_path: Path, user_config: Path) -> None:
    (tmp_path / "paperlint.toml").write_text("[budget]\nmax_calls = 3\n")
    inner = tmp_path / "repo" / "paper"
    inner.mkdir(parents=True)
    (tmp_path / "repo" / ".git").mkdir()
    assert load_config(None, start=inner).files == ()


def test_explicit_config_replaces_both_files(repo: Path, user_config: Path) -> None:
    user_config.write_text("[budget]\nmax_calls = 7\n")
    other = repo / "other.toml"
    other.write_text("[budget]\nprover_attempts = 9\n")
    loaded = load_config(other, start=repo / "paper")
    assert loaded.files == (other,)
    assert loaded.config.budget.max_calls is None


def test_a_bad_user_file_is_named(repo: Path, user_config: Path) -> None:
    user_config.write_text("[budget]\nmax_cost = 5\n")
    with pytest.raises(Exception, match="max_cost_usd") as info:
        load_config(None, start=repo / "paper")
    assert str(user_config) in str(info.value)


def test_config_command_prints_files_and_origins(
    repo: Path, user_config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    user_config.write_text("[budget]\nmax_calls = 7\n")
    project = repo / "paper" / "paperlint.toml"
    assert run(["config", str(repo / "paper" / "paper.tex")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:3] == [
        "files read (later ones win):",
        f"  {user_config} (user)",
        f"  {project} (project)",
    ]
    assert f"budget.max_calls = 7  # {user_config}" in out
    assert f"faithfulness.double_draft = true  # {project}" in out
    assert "budget.prover_attempts = 4  # default" in out
    assert run(["config", str(repo / "paper"), "--format", "json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert [f["kind"] for f in payload["files"]] == ["user", "project"]
    values = {v["key"]: v for v in payload["values"]}
    assert values["faithfulness.double_draft"] == {
        "key": "faithfulness.double_draft",
        "value": True,
        "origin": str(project),
    }


def test_config_command_without_any_file(tmp_path: Path, user_config: Path, capsys) -> None:
    (tmp_path / ".git").mkdir()
    assert run(["config", str(tmp_path)]) == 0
    assert capsys.readouterr().out.startswith("files read: none")
    assert run(["config", str(tmp_path / "absent.tex")]) == 2


def test_inside_a_workspace_the_papers_config_is_read_not_the_runs_record(
    repo: Path, user_config: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """`paper.paperlint/paperlint.toml` is the run's record of its config ([run], [versions]):
    from `paper.paperlint/source/` preflight and config read the paper's own file, as the check
    did; named with --config, the record is refused with what to do instead."""
    paper = repo / "paper"
    argv = ["check", str(paper / "paper.tex"), "--replay", str(paper / "replay"), "-q"]
    assert run(argv) == 1
    workspace = paper / "paper.paperlint"
    monkeypatch.chdir(workspace / "source")
    capsys.readouterr()
    assert run(["preflight", "paper.tex"]) == 0
    assert "unknown config key" not in capsys.readouterr().err
    assert run(["config", "paper.tex", "--format", "json"]) == 0
    files = json.loads(capsys.readouterr().out)["files"]
    assert [Path(f["path"]) for f in files] == [paper / "paperlint.toml"]
    assert run(["config", "paper.tex", "--config", str(workspace / "paperlint.toml")]) == 2
    err = capsys.readouterr().err
    assert "a check's record of the config it ran with, not a config to read" in err
    assert "pass the paper's own paperlint.toml" in err

"""`paperlint batch` (issue #14): many papers, each in its own workspace, one summary table."""

import json
import shutil
from pathlib import Path

from paperlint.cli.root import run
from paperlint.engine.batch import workspaces

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
CORPUS = Path("/work/shared/corpus/tdrp/src/lsa.tex")


def _live_paper(tmp_path: Path) -> Path:
    """A paper without a replay: the shared corpus's smallest when present, else a copy of an
    example paper without its replay folder."""
    if CORPUS.is_file():
        return CORPUS
    folder = tmp_path / "no-replay"
    folder.mkdir()
    shutil.copyfile(FIXTURES / "proportions" / "paper.tex", folder / "paper.tex")
    return folder / "paper.tex"


def test_batch_checks_each_paper_in_its_own_workspace_with_one_summary(tmp_path, capsys):
    live = _live_paper(tmp_path)
    papers = [
        FIXTURES / "sample-variance/paper.tex",
        FIXTURES / "sample-variance-v2/paper.tex",
        live,
    ]
    root = tmp_path / "runs"
    argv = ["batch", *map(str, papers), "--replays", "--workroot", str(root), "--jobs", "2"]
    code = run([*argv, "--format", "json", "-q"])
    report = json.loads(capsys.readouterr().out)
    assert code == report["exit_code"] == 1  # an issue was recorded (sample-variance's)
    first, second, other = report["papers"]
    assert [first["paper"], second["paper"], other["paper"]] == list(map(str, papers))
    assert first["replay"] and second["replay"]
    assert first["counts"] == {"verified_unconditional": 1, "verified_conditional": 1, "issue": 2}
    assert second["counts"] == first["counts"]  # the revised paper's full replay ends alike
    # No replay, no model configured: every verdict-bearing result is honestly unfinished.
    assert not other["replay"] and other["stop_reason"] == "model_unavailable"
    assert set(other["counts"]) == {"unfinished"} and other["counts"]["unfinished"] > 0
    folders = {r["workspace"] for r in report["papers"]}
    assert len(folders) == 3
    for row in report["papers"]:
        workdir = Path(row["workspace"])
        assert (workdir / "results.json").is_file() and (workdir / "report").is_dir()
        assert run(["validate", str(workdir)]) == 0
    capsys.readouterr()
    # The text summary: one row per paper and a total.
    assert run([*argv, "--fresh", "-q"]) == 1
    table = capsys.readouterr().out.splitlines()
    assert table[0].split()[:2] == ["paper", "mode"]
    assert [line.split()[1] for line in table[1:4]] == ["REPLAY", "REPLAY", "live"]
    assert table[-1].split() == ["total", "2", "2", "4", str(other["counts"]["unfinished"]), "1"]


def test_an_existing_check_is_a_row_with_its_error_and_exit_2(tmp_path, capsys):
    paper = FIXTURES / "proportions/paper.tex"
    argv = ["batch", str(paper), "--replays", "--workroot", str(tmp_path), "-q", "--jobs", "1"]
    assert run(argv) == 1  # proportions records an issue
    capsys.readouterr()
    assert run([*argv, "--format", "json"]) == 2
    row = json.loads(capsys.readouterr().out)["papers"][0]
    assert "already exists" in row["error"]


def test_papers_with_the_same_file_name_get_distinct_workspaces(tmp_path):
    papers = [FIXTURES / "sample-variance/paper.tex", FIXTURES / "proportions/paper.tex"]
    names = [p.name for p in workspaces(papers, tmp_path)]
    assert names == ["sample-variance-paper", "proportions-paper"]


def test_batch_on_ray_shares_one_local_cluster(ray_session, tmp_path, capsys):
    # the session's cluster (tests/conftest.py): every paper's run joins it, none starts one
    papers = [FIXTURES / "sample-variance/paper.tex", FIXTURES / "proportions/paper.tex"]
    argv = ["batch", *map(str, papers), "--replays", "--workroot", str(tmp_path), "--jobs", "2"]
    assert run([*argv, "--executor", "ray", "--format", "json", "-q"]) == 1
    rows = json.loads(capsys.readouterr().out)["papers"]
    assert [r["counts"] for r in rows] == [
        {"verified_unconditional": 1, "verified_conditional": 1, "issue": 2},
        {"verified_unconditional": 2, "issue": 1, "verified_conditional": 1},
    ]

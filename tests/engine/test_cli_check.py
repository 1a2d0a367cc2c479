"""`check`, `resume` and `status` through the CLI, with the edges absent or replayed."""

import json

import pytest

from paperlint.cli.root import run
from tests.engine.conftest import example


def test_without_model_or_lean_check_says_so_and_records_unfinished(tmp_path, capsys, no_lean):
    workdir = tmp_path / "ws"
    code = run(["check", str(example("proportions") / "paper.tex"), "--workdir", str(workdir)])
    assert code == 4
    err = capsys.readouterr().err
    assert "no model configured" in err and "Lean cannot run" in err
    data = json.loads((workdir / "results.json").read_text())
    reasons = {r["unfinished"]["reason"] for r in data["results"] if r["verdict_bearing"]}
    assert reasons == {"model_unavailable"}
    assert data["replay"] is False


def test_a_second_check_of_the_same_paper_points_to_resume(tmp_path, capsys, no_lean):
    workdir = tmp_path / "ws"
    argv = ["check", str(example("proportions") / "paper.tex"), "--workdir", str(workdir)]
    run(argv)
    capsys.readouterr()
    assert run(argv) == 2
    assert "paperlint resume" in capsys.readouterr().err


def test_status_is_read_only_and_explains(tmp_path, capsys, no_lean):
    workdir = tmp_path / "ws"
    run(["check", str(example("proportions") / "paper.tex"), "--workdir", str(workdir)])
    before = {p: p.stat().st_mtime_ns for p in workdir.rglob("*") if p.is_file()}
    capsys.readouterr()
    assert run(["status", str(workdir), "--why"]) == 0
    out = capsys.readouterr().out
    assert "model_unavailable" in out and "lem:odds-pos" in out
    assert run(["status", str(workdir), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["results"]
    assert {r["verdict"] for r in rows} == {"unfinished"}
    after = {p: p.stat().st_mtime_ns for p in workdir.rglob("*") if p.is_file()}
    assert before == after


def test_status_of_a_folder_that_is_not_a_workspace(tmp_path, capsys):
    assert run(["status", str(tmp_path)]) == 2
    assert "not a paperlint workspace" in capsys.readouterr().err


def test_check_of_a_missing_paper(tmp_path, capsys):
    assert run(["check", str(tmp_path / "nope.tex"), "--workdir", str(tmp_path / "w")]) == 2


def test_until_gated_stops_before_any_proof(tmp_path):
    fixture = example("sample-variance")
    workdir = tmp_path / "ws"
    code = run(
        [
            "check",
            str(fixture / "paper.tex"),
            "--replay",
            str(fixture / "replay"),
            "--workdir",
            str(workdir),
            "--until",
            "gated",
        ]
    )
    assert code == 4
    data = json.loads((workdir / "results.json").read_text())
    stages = {r["id"]: r["stage"] for r in data["results"]}
    assert stages["lem:mean-max"] == "gated"
    assert all(r["verdict"] is None for r in data["results"])
    events = [json.loads(x) for x in (workdir / "events.jsonl").read_text().splitlines()]
    assert not [e for e in events if e["type"] == "model_call" and e["role"] == "prover"]
    assert run(["resume", str(workdir)]) == 1  # the rest of the run: two issues


def test_ctrl_c_saves_state_exits_130_and_resume_finishes(tmp_path, monkeypatch, finished_runs):
    from paperlint.engine import run as run_module

    real_step = run_module._step
    calls = {"n": 0}

    def interrupted_step(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 5:
            raise KeyboardInterrupt
        return real_step(*args, **kwargs)

    monkeypatch.setattr(run_module, "_step", interrupted_step)
    fixture = example("sample-variance")
    workdir = tmp_path / "ws"
    argv = [
        "check",
        str(fixture / "paper.tex"),
        "--replay",
        str(fixture / "replay"),
        "--workdir",
        str(workdir),
        "--jobs",
        "1",  # the serial loop's ^C (the parallel one: tests/engine/test_parallel_crash.py)
    ]
    assert run(argv) == 130
    data = json.loads((workdir / "results.json").read_text())
    assert {r["unfinished"]["reason"] for r in data["results"] if r["verdict"] == "unfinished"} == {
        "interrupted"
    }
    monkeypatch.setattr(run_module, "_step", real_step)
    assert run(["resume", str(workdir)]) == 1
    reference, _ = finished_runs["sample-variance"]
    assert json.loads((workdir / "results.json").read_text()) == json.loads(
        (reference / "results.json").read_text()
    )
    assert list((workdir / "snapshots").iterdir())


def test_a_spent_budget_stops_the_run_and_a_larger_one_resumes_it(tmp_path, finished_runs):
    fixture = example("sample-variance")
    workdir = tmp_path / "ws"
    argv = [
        "check",
        str(fixture / "paper.tex"),
        "--replay",
        str(fixture / "replay"),
        "--workdir",
        str(workdir),
        "--max-calls",
        "6",
    ]
    assert run(argv) == 4
    data = json.loads((workdir / "results.json").read_text())
    reasons = {r["unfinished"]["reason"] for r in data["results"] if r["verdict"] == "unfinished"}
    assert reasons == {"budget_exhausted"}
    events = [json.loads(x) for x in (workdir / "events.jsonl").read_text().splitlines()]
    assert sum(1 for e in events if e["type"] == "model_call") == 6
    assert run(["resume", str(workdir), "--max-calls", "1000"]) == 1
    reference, _ = finished_runs["sample-variance"]
    assert json.loads((workdir / "results.json").read_text()) == json.loads(
        (reference / "results.json").read_text()
    )


def test_status_why_names_a_source_changed_since_the_check(tmp_path, capsys, no_lean):
    paper = tmp_path / "paper.tex"
    paper.write_text((example("proportions") / "paper.tex").read_text())
    run(["check", str(paper)])
    paper.write_text(paper.read_text() + "\n% an edit after the check\n")
    capsys.readouterr()
    assert run(["status", str(tmp_path / "paper.paperlint"), "--why"]) == 0
    assert "stale: source-changed: paper.tex" in capsys.readouterr().out


SHARED_FOLDER_PAPER = r"""\documentclass{article}
\usepackage{amsthm}
\newtheorem{lemma}{Lemma}
\begin{document}
\begin{lemma}\label{lem:%s}
$1 + 1 = 2$.
\end{lemma}
\begin{lemma}\label{lem%s}
$2 + 2 = 4$.
\end{lemma}
\end{document}
"""


@pytest.mark.parametrize(
    ("first", "second"),
    [("a", "_a"), ("main", "@main"), ("A", ":a")],  # lem:a / lem_a; lem:main / lem@main; case
)
def test_labels_sharing_an_evidence_folder_stop_the_check(tmp_path, capsys, first, second):
    paper = tmp_path / "paper.tex"
    paper.write_text(SHARED_FOLDER_PAPER % (first, second), encoding="utf-8")
    workdir = tmp_path / "ws"
    assert run(["check", str(paper), "--workdir", str(workdir)]) == 2
    err = capsys.readouterr().err
    assert f"`lem:{first}`" in err and f"`lem{second}`" in err
    assert "paper.tex:8:" in err and "rename one of the two labels" in err
    assert not workdir.exists()  # nothing written

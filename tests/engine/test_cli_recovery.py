"""What the terminal says when a run cannot go on (issue #29): a full disk or a read-only
workspace is exit 2 naming the path and what to do (before: "internal error", exit 3); a corrupt
`results.json` names the snapshot to restore from; a budget stop says plain `resume` has
nothing to do; a killed run's temp files are removed by the next one; a live run with recorded
Lean answers is not labelled a replay."""

from __future__ import annotations

import errno
import json
import shutil

import pytest

import paperlint.store as store
from paperlint.cli.root import run
from tests.engine.conftest import example

EXAMPLE = example("sample-variance")


def check(tmp_path, *more: str) -> int:
    argv = ["check", str(EXAMPLE / "paper.tex"), "--replay", str(EXAMPLE / "replay")]
    return run([*argv, "--workdir", str(tmp_path / "ws"), "--jobs", "1", *more])


@pytest.mark.parametrize(
    ("code", "said"),
    [(errno.ENOSPC, "the disk is full"), (errno.EROFS, "read-only file system")],
)
@pytest.mark.parametrize("command", ["check", "resume", "report"])
def test_a_full_disk_or_read_only_workspace_is_exit_2_with_what_to_do(
    tmp_path, monkeypatch, capsys, code, said, command
):
    if command != "check":
        assert check(tmp_path) == 1
    real = store._write_bytes_atomic

    def failing(path, data, **kw):
        raise OSError(code, "refused", str(path))

    monkeypatch.setattr(store, "_write_bytes_atomic", failing)
    capsys.readouterr()
    argv = {"resume": ["resume"], "report": ["report"]}.get(command)
    got = check(tmp_path) if argv is None else run([*argv, str(tmp_path / "ws")])
    err = capsys.readouterr().err
    assert got == 2, err
    assert said in err and "internal error" not in err
    assert "paperlint resume" in err or command != "resume"
    monkeypatch.setattr(store, "_write_bytes_atomic", real)
    if command != "check":
        assert run(["validate", str(tmp_path / "ws")]) == 0  # nothing was torn


def test_a_corrupt_results_json_names_the_snapshot_to_restore(tmp_path, capsys):
    assert check(tmp_path) == 1
    ws = tmp_path / "ws"
    (ws / "results.json").write_text("{not json")
    capsys.readouterr()
    assert run(["resume", str(ws)]) == 2
    err = capsys.readouterr().err
    assert "snapshots/event-" in err and "cp -r" in err
    snapshot = sorted((ws / "snapshots").glob("event-*"))[-1]
    shutil.copytree(snapshot, ws, dirs_exist_ok=True)  # the hint, followed
    assert run(["resume", str(ws)]) == 1


def test_a_budget_stop_says_how_to_continue(tmp_path, capsys):
    assert check(tmp_path, "--max-calls", "3") == 4
    err = capsys.readouterr().err
    assert "--max-calls N" in err and "plain `resume` has nothing to do" in err


def test_the_next_run_removes_a_killed_runs_temp_files(tmp_path):
    assert check(tmp_path, "--max-calls", "3") == 4
    ws = tmp_path / "ws"
    stale = [ws / ".results.json.abc123.tmp", ws / "audits" / ".x.lean.q1w2e3.tmp"]
    for path in stale:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("torn")
    assert run(["resume", str(ws), "--max-calls", "1000"]) == 1
    assert not any(path.exists() for path in stale)


def test_recorded_lean_with_replayed_models_is_a_replay_but_not_recorded_lean_alone(
    tmp_path, capsys
):
    assert check(tmp_path) == 1
    assert "REPLAY — " in capsys.readouterr().out
    from paperlint.cli.check_cmd import replay_label

    assert replay_label(["lean"]) == "live models, recorded Lean answers — "
    assert replay_label([]) == ""
    data = json.loads((tmp_path / "ws" / "results.json").read_text())
    assert data["replay_parts"] == ["model", "lean"]

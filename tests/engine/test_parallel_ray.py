"""`--executor ray` (issue #14): the same actions as Ray tasks on a local cluster write the
same records as the serial run; without Ray installed the option says how to install it."""

import json
import tempfile
from pathlib import Path

import pytest

from paperlint.cli.root import run
from paperlint.config import Config
from paperlint.engine import executors
from paperlint.engine.check import CheckRequest, start_check
from paperlint.engine.executors import RunOptions
from tests.engine.conftest import example


def test_without_ray_the_executor_is_a_usage_error_that_says_how_to_install_it(
    monkeypatch, capsys, tmp_path
):
    monkeypatch.setattr(executors, "ray_installed", lambda: False)
    fixture = example("sample-variance")
    argv = ["check", str(fixture / "paper.tex"), "--executor", "ray", "--workdir", str(tmp_path)]
    assert run(argv) == 2
    err = capsys.readouterr().err
    assert "pip install 'paperlint[ray]'" in err
    assert not (tmp_path / "results.json").exists()


def test_an_address_without_the_ray_executor_is_refused(capsys, tmp_path):
    fixture = example("sample-variance")
    argv = ["check", str(fixture / "paper.tex"), "--address", "auto", "--workdir", str(tmp_path)]
    assert run(argv) == 2
    assert "--executor ray" in capsys.readouterr().err


def test_ray_tasks_write_the_records_the_serial_run_writes(finished_runs):
    pytest.importorskip("ray", reason="Ray is an optional extra: pip install 'paperlint[ray]'")
    name = "sample-variance"
    fixture = example(name)
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp) / "ws"
        start_check(
            CheckRequest(
                paper=fixture / "paper.tex",
                config=Config(),
                workdir=workdir,
                replay=fixture / "replay",
                report=False,
                run=RunOptions(jobs=2, executor="ray"),
            )
        )
        reference, _ = finished_runs[name]
        assert json.loads((workdir / "results.json").read_text()) == json.loads(
            (reference / "results.json").read_text()
        )
        events = [json.loads(x) for x in (workdir / "events.jsonl").read_text().splitlines()]
        starts = [e for e in events if e["type"] == "action_started"]
        ends = [e for e in events if e["type"] == "action_finished"]
        assert len(starts) == len(ends) > 0
        # the model calls made in the tasks are logged on the driver, in the one event log
        assert any(e["type"] == "model_call" for e in events)
        assert [e["seq"] for e in events] == list(range(1, len(events) + 1))

"""Killed after any event and resumed, a run ends exactly where an uninterrupted run ends."""

import json
from collections import Counter

import pytest

from tests.engine.conftest import EXAMPLES, check_argv, run_cli_forked

CRASHED = 77


def _results(workdir):
    return json.loads((workdir / "results.json").read_text())


def _model_calls(workdir):
    events = [json.loads(line) for line in (workdir / "events.jsonl").read_text().splitlines()]
    return Counter(
        (e["role"], e["result"], e["obligation"], e["attempt"])
        for e in events
        if e["type"] == "model_call"
    )


def _event_count(workdir):
    return len((workdir / "events.jsonl").read_text().splitlines())


@pytest.mark.parametrize("name", EXAMPLES)
def test_kill_after_every_event_then_resume(name, finished_runs, tmp_path):
    reference, _ = finished_runs[name]
    expected = _results(reference)
    total = _event_count(reference)
    assert total > 20
    for index in range(1, total + 1):
        workdir = tmp_path / f"crash-{index}"
        code = run_cli_forked(check_argv(name, workdir), PAPERLINT_FAILPOINT=f"after-event:{index}")
        assert code == CRASHED, f"event {index}: the failpoint did not fire (exit {code})"
        code = run_cli_forked(["resume", str(workdir)])
        assert code in (0, 1, 4), f"event {index}: resume exited {code}"
        assert _results(workdir) == expected, f"results differ after a crash at event {index}"
        calls = _model_calls(workdir)
        assert max(calls.values()) <= 2, f"event {index}: a model call was repeated twice"
        assert sum(calls.values()) <= sum(_model_calls(reference).values()) + 1

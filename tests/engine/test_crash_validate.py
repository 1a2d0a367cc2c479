"""Killed between the writes that end an action and resumed, the workspace still validates.

Issue #12: the end of an action used to be three events (`action_finished`, `stage`,
`verdict`) written after `results.json`; killed after event 38 or 39 of the example, the
records held a verdict the log never recorded and `validate` reported
`verdict-event-mismatch`. The end of an action is now one line, logged before the commit.
"""

import json

import pytest

from paperlint.records.events import parse_event
from tests.engine.conftest import check_argv, run_cli_forked

CRASHED = 77
EXAMPLE = "sample-variance"


def _events(workdir):
    lines = (workdir / "events.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def _verdict_ends(workdir):
    """1-based indices of the events that end an action with a verdict."""
    return [
        i
        for i, e in enumerate(_events(workdir), start=1)
        if e["type"] == "action_finished" and e.get("verdict")
    ]


def test_every_event_of_a_run_is_a_typed_record(finished_runs):
    reference, _ = finished_runs[EXAMPLE]
    events = _events(reference)
    assert [parse_event(e).type for e in events] == [e["type"] for e in events]
    assert not [e for e in events if e["type"] in ("stage", "verdict")]  # one line per end


def test_a_verdict_is_logged_with_its_stage_in_one_line(finished_runs):
    reference, _ = finished_runs[EXAMPLE]
    records = json.loads((reference / "results.json").read_text())["results"]
    ends = {e["result"]: e for e in _events(reference) if e["type"] == "action_finished"}
    for record in records:
        if record["verdict"] in ("issue", "verified_conditional", "verified_unconditional"):
            end = [
                e
                for e in _events(reference)
                if e["type"] == "action_finished" and e.get("result") == record["id"]
            ][-1]
            assert end["verdict"] == record["verdict"]
            assert end["class"] == (record["issue"] or {}).get("class")
            assert end["stage"]["to"] == "done"
    assert ends


def _crash_points(reference):
    # 38 and 39 are the indices of the report; the rest are every write around each
    # action end that carries a verdict (just before it, at it, just after it).
    points = {38, 39}
    for index in _verdict_ends(reference):
        points.update({index - 1, index, index + 1})
    return sorted(points)


@pytest.fixture(scope="module")
def reference_ends(finished_runs):
    reference, _ = finished_runs[EXAMPLE]
    return _crash_points(reference)


def test_crash_points_cover_the_reported_events(reference_ends):
    assert {38, 39} <= set(reference_ends)


def test_killed_around_an_action_end_then_resumed_validates(finished_runs, tmp_path):
    reference, _ = finished_runs[EXAMPLE]
    for index in _crash_points(reference):
        workdir = tmp_path / f"crash-{index}"
        code = run_cli_forked(
            check_argv(EXAMPLE, workdir), PAPERLINT_FAILPOINT=f"after-event:{index}"
        )
        assert code == CRASHED, f"event {index}: the failpoint did not fire (exit {code})"
        assert run_cli_forked(["resume", str(workdir)]) in (0, 1, 4), f"event {index}: resume"
        code = run_cli_forked(["validate", str(workdir)])
        assert code == 0, f"event {index}: validate exited {code} after resume"

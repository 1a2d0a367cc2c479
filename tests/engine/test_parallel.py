"""`check --jobs N` (issue #14): the ready set is a pure function of the records, and a
parallel run writes the same records as the serial queue, with every action's start matched
by its end and the budget's call cap never passed."""

import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperlint.config import Config
from paperlint.engine.actions import ActionKind
from paperlint.engine.check import CheckRequest, resume_check, start_check
from paperlint.engine.executors import RunOptions
from paperlint.engine.plan import Policy, Stop, plan, ready
from paperlint.lean.jobs import default_jobs
from paperlint.records.results import ResultRecord, Results, Stage, Verdict
from paperlint.records.spend import Budget, Spend
from tests.engine.conftest import EXAMPLES, action_key, check_example, events_of, example

ROOT = Path(__file__).resolve().parents[2]
POLICY = Policy(prover_ladder=("m",))


def rec(rid, *, done=False):
    record = ResultRecord(id=rid, number="1", kind="lemma")
    if done:
        record = record.model_copy(
            update={"stage": Stage.DONE, "verdict": Verdict.VERIFIED_UNCONDITIONAL}
        )
    return record


def test_ready_holds_back_a_result_while_a_dependency_has_work():
    recs = Results(results=[rec("a"), rec("b"), rec("c")])
    order = ["a", "b", "c"]
    deps = {"b": ["a"], "c": []}
    found = ready(recs, order, POLICY, Spend(), deps=deps)
    assert [(x.kind, x.result) for x in found] == [(ActionKind.PLAN, "a"), (ActionKind.PLAN, "c")]
    # `a` in flight: `b` still waits, `c` is offered; with both in flight nothing is.
    assert [x.result for x in ready(recs, order, POLICY, Spend(), deps=deps, busy={"a"})] == ["c"]
    assert ready(recs, order, POLICY, Spend(), deps=deps, busy={"a", "c"}) == []


def test_a_settled_dependency_releases_its_dependents():
    recs = Results(results=[rec("a", done=True), rec("b")])
    found = ready(recs, ["a", "b"], POLICY, Spend(), deps={"b": ["a"]})
    assert [x.result for x in found] == ["b"]


def test_ready_stops_when_nothing_is_left_or_the_budget_is_spent():
    done = Results(results=[rec("a", done=True)])
    assert ready(done, ["a"], POLICY, Spend()) == Stop(None)
    capped = Policy(prover_ladder=("m",), budget=Budget(max_calls=3))
    stop = ready(Results(results=[rec("a")]), ["a"], capped, Spend(calls=3))
    assert isinstance(stop, Stop) and stop.reason is not None
    # Spent while an action is in flight and nothing else can start: wait for it, no stop.
    assert ready(Results(results=[rec("a")]), ["a"], capped, Spend(calls=3), busy={"a"}) == []


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.booleans(), min_size=1, max_size=8),
    st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), max_size=12),
)
def test_the_serial_plan_is_the_first_ready_action(done_flags, edges):
    ids = [f"r{i}" for i in range(len(done_flags))]
    recs = Results(results=[rec(i, done=d) for i, d in zip(ids, done_flags, strict=True)])
    deps: dict[str, list[str]] = {}
    for a, b in edges:  # only earlier results are dependencies (the order is topological)
        if b < a < len(ids):
            deps.setdefault(ids[a], []).append(ids[b])
    serial = plan(recs, ids, POLICY, Spend())
    found = ready(recs, ids, POLICY, Spend(), deps=deps)
    if isinstance(serial, Stop):
        assert found == serial
    else:
        assert isinstance(found, list) and found[0] == serial


def test_default_jobs_is_bounded_by_cores_and_by_memory_per_lean_worker():
    assert default_jobs(cores=8, memory_mb=64 * 1024) == 8
    assert default_jobs(cores=8, memory_mb=12 * 1024) == 2  # 5 GB per warm worker
    assert default_jobs(cores=8, memory_mb=1024) == 1


_check, _events, _key = check_example, events_of, action_key


@pytest.mark.parametrize("name", EXAMPLES)
def test_four_jobs_write_the_records_one_job_writes(name, tmp_path, finished_runs):
    reference, _ = finished_runs[name]
    workdir = tmp_path / "ws"
    _check(name, workdir, 4)
    assert json.loads((workdir / "results.json").read_text()) == json.loads(
        (reference / "results.json").read_text()
    )
    events = _events(workdir)
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))  # append-only
    # Every start has its end, and an action never ends before it started.
    open_: Counter[str] = Counter()
    for event in events:
        if event["type"] == "action_started":
            open_[_key(event)] += 1
        elif event["type"] == "action_finished":
            assert open_[_key(event)] > 0, f"{name}: an end without its start"
            open_[_key(event)] -= 1
    assert not +open_, f"{name}: starts without an end: {+open_}"
    started = Counter(_key(e) for e in _events(reference) if e["type"] == "action_started")
    assert Counter(_key(e) for e in events if e["type"] == "action_started") == started


@pytest.mark.parametrize("cap", [3, 7, 12])
def test_parallel_actions_never_pass_the_call_cap(cap, tmp_path):
    workdir = tmp_path / "ws"
    _check("sample-variance", workdir, 4, budget={"max_calls": cap})
    events = _events(workdir)
    charged = sum(
        e.get("charge", {}).get("calls", 0) if e["type"] == "action_started" else e.get("calls", 0)
        for e in events
        if e["type"] in ("action_started", "charge")
    )
    assert charged <= cap
    assert sum(1 for e in events if e["type"] == "model_call") <= cap
    results = json.loads((workdir / "results.json").read_text())
    reasons = {r["unfinished"]["reason"] for r in results["results"] if r.get("unfinished")}
    assert reasons <= {"budget_exhausted"} and reasons
    # A larger budget resumes it to the same end as an uninterrupted run.
    resume_check(workdir, budget={"max_calls": 1000}, report=False, run=RunOptions(jobs=4))
    _check("sample-variance", tmp_path / "ref", 1)
    assert json.loads((workdir / "results.json").read_text()) == json.loads(
        (tmp_path / "ref" / "results.json").read_text()
    )


def _bench_module():
    spec = importlib.util.spec_from_file_location("bench_parallel", ROOT / "benchmarks/parallel.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_parallel", module)
    spec.loader.exec_module(module)
    return module


def test_a_small_synthetic_paper_is_faster_with_four_jobs_and_ends_the_same():
    """benchmarks/parallel.py in small: 9 lemmas, answers that take 150 ms (model) and 100 ms
    (Lean), so that what four jobs overlap is latency, not the CPU two busy cores share (at
    50 ms it failed under a loaded `-n 2` suite); each run in a cold process of its own (the
    check's own time compared: the start-ups are alike)."""
    report = _bench_module().bench(9, [1, 4], model_s=0.15, lean_s=0.1, ray=False)
    serial, parallel = report["runs"]
    assert report["verified"] == 9
    assert parallel["same"], "four jobs wrote other records than one job"
    assert parallel["check_s"] < 0.75 * serial["check_s"], report
    assert [row["executor"] for row in report["summary"]] == ["threads", "threads"]


def test_until_a_stage_stops_every_result_there_as_the_serial_run_does(tmp_path):
    fixture = example("sample-variance")
    out = {}
    for jobs in (1, 4):
        workdir = tmp_path / f"ws-{jobs}"
        start_check(
            CheckRequest(
                paper=fixture / "paper.tex",
                config=Config(),
                workdir=workdir,
                replay=fixture / "replay",
                until="gated",
                report=False,
                run=RunOptions(jobs=jobs),
            )
        )
        out[jobs] = json.loads((workdir / "results.json").read_text())
    assert out[1] == out[4]
    assert {r["stage"] for r in out[4]["results"] if r["verdict_bearing"]} <= {"gated", "done"}


def test_ctrl_c_lets_the_actions_in_flight_finish_then_resume_ends_as_serial(
    tmp_path, monkeypatch, finished_runs
):
    from paperlint.engine import scheduler

    real = scheduler.Parallel.settle
    calls = {"n": 0}

    def interrupted(self, results):
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return real(self, results)

    monkeypatch.setattr(scheduler.Parallel, "settle", interrupted)
    workdir = tmp_path / "ws"
    summary = _check("sample-variance", workdir, 4)
    assert summary.interrupted
    events = _events(workdir)
    starts = Counter(_key(e) for e in events if e["type"] == "action_started")
    ends = Counter(_key(e) for e in events if e["type"] == "action_finished")
    # what was in flight at ^C ended: finished and committed, or (its request cancelled
    # before it was sent) logged as ended with no record changed, for `resume` to redo
    assert starts == ends
    assert events[-1]["type"] == "interrupted"
    monkeypatch.setattr(scheduler.Parallel, "settle", real)
    resume_check(workdir, report=False, run=RunOptions(jobs=4))
    reference, _ = finished_runs["sample-variance"]
    assert json.loads((workdir / "results.json").read_text()) == json.loads(
        (reference / "results.json").read_text()
    )


def test_the_progress_line_shows_the_actions_in_flight_done_total_elapsed_and_spend():
    import io

    from paperlint.cli.progress import StatusLine, status_text

    text = status_text("prove lem:a", done=3, total=9, elapsed=75, spend=(12, 0.4), in_flight=4)
    assert text.startswith("[3/9] · 4 in flight · prove lem:a · elapsed 1:15 · 12 calls, $0.40")
    log = io.StringIO()
    ticks = iter([0.0, 8.0])
    StatusLine(log, clock=lambda: next(ticks)).update(
        "gate lem:b (attempt 1)", done=1, total=5, in_flight=2
    )
    assert log.getvalue() == (
        "[1/5] · 2 in flight · gate lem:b (attempt 1) · elapsed 0:08 · ETA 0:32\n"
    )

"""A runner that goes on to a result's next action without asking the loop (`Done.then`, what a
Ray actor does: `scheduler.chained`): the records are the serial queue's, every start has its
end, an action the loop would not have started is applied to nothing, and nothing goes on once
the run stops. On threads here, so the loop's side is tested without Ray."""

import json
import logging
from collections import Counter
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace

import pytest

from paperlint.config import Config
from paperlint.engine import scheduler
from paperlint.engine.actions import Failure
from paperlint.engine.check import CheckRequest, start_check
from paperlint.engine.execute import execute, needed_records
from paperlint.engine.plan import Policy
from paperlint.engine.scheduler import Done, chained
from paperlint.engine.steps import Failed
from paperlint.records.spend import Budget
from tests.engine.conftest import EXAMPLES, action_key, check_example, events_of, example


class ChainingThreads:
    """Each action on a thread of its own, then each next action of its result `chained`
    allows, handed back one by one as a Ray actor's stream is. `repeat`: go on, once, to a
    later attempt of the next action (one the loop does not plan)."""

    made: list["ChainingThreads"] = []

    def __init__(self, jobs: int, *, repeat: bool = False, unavailable_at: int = 0) -> None:
        self._pool = ThreadPoolExecutor(max_workers=jobs)
        self.repeat = repeat
        self.unavailable_at = unavailable_at
        """The action (counted from 1) that finds the model unavailable; 0: none."""
        self.ran = 0
        self.went_on = 0
        self.halts = 0
        self.loop: scheduler.Parallel | None = None
        ChainingThreads.made.append(self)

    def submit(self, work, results, action) -> Future[Done]:
        first: Future[Done] = Future()
        self._pool.submit(
            self._chain, needed_records(self.loop.ctx, results, action), action, first
        )
        return first

    def _chain(self, results, action, future) -> None:
        loop = self.loop
        try:
            while True:
                self.ran += 1
                if self.ran == self.unavailable_at:
                    outcome = Failed(
                        action=action, failure=Failure.MODEL_UNAVAILABLE, detail="gone"
                    )
                else:
                    with loop.pool.lease() as lease:
                        outcome = execute(replace(loop.ctx, verifier=lease), results, action)
                following = None
                if not self.halts:
                    following = chained(loop.ctx, loop.policy, results, outcome)
                if following is None:
                    future.set_result(Done(outcome=outcome))
                    return
                then = following[0]
                if self.repeat:  # the next action, but a later attempt of it
                    then = then.model_copy(update={"attempt": then.attempt + 1})
                nxt: Future[Done] = Future()
                self.went_on += 1
                future.set_result(Done(outcome=outcome, then=(then, nxt)))
                action, results, future = then, following[1], nxt
                if self.repeat:
                    self.repeat = False  # once
        except BaseException as exc:  # noqa: BLE001 - handed to the loop, as Ray's would be
            future.set_exception(exc)

    def halt(self) -> None:
        self.halts += 1

    def close(self, *, wait: bool = True) -> None:
        self._pool.shutdown(wait=wait, cancel_futures=not wait)


@pytest.fixture
def chaining(monkeypatch):
    """The loop's thread runner replaced by `ChainingThreads`, which learns the loop it serves."""
    ChainingThreads.made = []
    real = scheduler.Parallel.__init__

    def init(self, ctx, policy, journal, runner, *rest):
        real(self, ctx, policy, journal, runner, *rest)
        runner.loop = self

    monkeypatch.setattr(scheduler.Parallel, "__init__", init)

    def use(**options):
        monkeypatch.setattr(
            scheduler, "ThreadRunner", lambda jobs: ChainingThreads(jobs, **options)
        )

    return use


def _check(name, workdir, jobs=3, **config):
    return check_example(name, workdir, jobs, **config)


_events, _key = events_of, action_key


def _starts(events):
    return Counter(_key(e) for e in events if e["type"] == "action_started")


@pytest.mark.parametrize("name", EXAMPLES)
def test_actions_a_runner_went_on_to_write_the_records_of_the_serial_queue(
    name, chaining, finished_runs, tmp_path
):
    chaining()
    _check(name, tmp_path / "ws")
    reference, _ = finished_runs[name]
    assert json.loads((tmp_path / "ws" / "results.json").read_text()) == json.loads(
        (reference / "results.json").read_text()
    )
    # (a run whose convergence review re-gates runs the loop again: a runner each time)
    assert sum(r.went_on for r in ChainingThreads.made) > 0
    events = _events(tmp_path / "ws")
    # each action once, as the serial queue ran it; each start logged before its end
    assert _starts(events) == _starts(_events(reference))
    open_: Counter[str] = Counter()
    for event in events:
        if event["type"] == "action_started":
            open_[_key(event)] += 1
        elif event["type"] == "action_finished":
            assert open_[_key(event)] > 0, "an end before its start"
            open_[_key(event)] -= 1
    assert not +open_
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))


def test_an_action_the_loop_would_not_start_is_applied_to_nothing(
    chaining, finished_runs, caplog, tmp_path
):
    chaining(repeat=True)
    caplog.set_level(logging.WARNING, logger="paperlint.engine.scheduler")
    _check("sample-variance", tmp_path / "ws")
    reference, _ = finished_runs["sample-variance"]
    assert (
        json.loads((tmp_path / "ws" / "results.json").read_text())["results"]
        == json.loads((reference / "results.json").read_text())["results"]
    )
    (warning,) = [r.getMessage() for r in caplog.records if "without being planned" in r.message]
    events = _events(tmp_path / "ws")
    starts = _starts(events)
    extra = starts - _starts(_events(reference))
    # the later attempt ran (its start charged and logged, its end logged) and changed nothing
    ((unplanned, count),) = extra.items()
    assert count == 1 and json.loads(unplanned)["attempt"] == 2
    assert json.loads(unplanned)["kind"] in warning
    (end,) = [e for e in events if e["type"] == "action_finished" and _key(e) == unplanned]
    assert end["stage"] is None and end["verdict"] is None


def test_no_runner_goes_on_under_a_budget_cap(chaining, tmp_path):
    chaining()
    _check("sample-variance", tmp_path / "ws", budget={"max_calls": 40})
    assert ChainingThreads.made and not any(r.went_on for r in ChainingThreads.made)


def test_an_edge_that_stops_the_run_halts_the_runner(chaining, tmp_path):
    chaining(unavailable_at=4)
    summary = _check("sample-variance", tmp_path / "ws")
    assert summary.stop_reason == "edge unavailable"
    (runner,) = ChainingThreads.made
    assert runner.halts >= 1
    # what was in flight ended, and nothing went on after the halt: every start has its end
    events = _events(tmp_path / "ws")
    ends = Counter(_key(e) for e in events if e["type"] == "action_finished")
    assert _starts(events) == ends


@pytest.mark.parametrize(
    ("budget", "goes_on"),
    [(Budget(), True), (Budget(max_calls=100), False), (Budget(max_cost_usd=5.0), False)],
)
def test_chained_goes_on_only_without_a_cap(budget, goes_on, drafted_run):
    ctx, policy, results, outcome = drafted_run
    following = chained(ctx, replace(policy, budget=budget), results, outcome)
    assert (following is not None) is goes_on
    if following is not None:
        action, records = following
        assert action.result == outcome.action.result and action != outcome.action
        assert records.get(action.result) is not None


def test_chained_stops_where_a_record_the_next_action_reads_is_missing(drafted_run):
    ctx, policy, results, outcome = drafted_run
    rid = outcome.action.result
    assert chained(ctx, policy, results, outcome) is not None
    held = {r.id for r in results.results}
    other = next(r for r in ctx.order if r not in held)
    # the next action would read a dependency the records handed over do not hold
    widened = replace(ctx, deps={**ctx.deps, rid: [*ctx.deps.get(rid, []), other]})
    assert chained(widened, policy, results, outcome) is None


@pytest.fixture
def drafted_run(tmp_path):
    """A workspace stopped after its drafts, opened as a run, and its next action's outcome."""
    from paperlint.blueprint.model import Blueprint
    from paperlint.engine.opening import open_run
    from paperlint.engine.plan import ready
    from paperlint.preflight.model import Inventory
    from paperlint.records import read_record
    from paperlint.records.journal import Journal
    from paperlint.records.spend import Spend
    from paperlint.records.workspace import open_workspace
    from paperlint.spec import read_spec

    fixture = example("sample-variance")
    start_check(
        CheckRequest(
            paper=fixture / "paper.tex",
            config=Config(),
            workdir=tmp_path / "ws",
            replay=fixture / "replay",
            report=False,
            until="drafted",
        )
    )
    ws = open_workspace(tmp_path / "ws")
    run = open_run(
        ws,
        read_spec(ws.config),
        inventory=read_record(ws.inventory, Inventory),
        blueprint=read_record(ws.blueprint, Blueprint),
        journal=Journal(None),
    )
    results = ws.load_results()
    actions = ready(results, list(run.ctx.order), run.policy, Spend(), deps=run.ctx.deps)
    assert isinstance(actions, list) and actions
    # the last result in order with an action: the one with the most dependencies
    action = actions[-1]
    needed = needed_records(run.ctx, results, action)
    outcome = execute(run.ctx, needed, action)
    assert isinstance(run.policy, Policy)
    return run.ctx, run.policy, needed, outcome

"""The Lean worker pool of `check --jobs N` (issue #14): one warm verifier per action in flight,
each its own process; a worker that dies is replaced and its action planned again.

The workers here are `WarmVerifier`s over the fake REPL of tests/lean_edge/test_warm.py (it
answers the REPL's JSON; an exception answer is a dead process), and in the end-to-end test
replay verifiers, one of which dies mid-run."""

import json
import threading
from collections import Counter

from paperlint.config import Config
from paperlint.engine import opening
from paperlint.engine.check import CheckRequest, start_check
from paperlint.engine.executors import RunOptions
from paperlint.lean.pool import SharedVerifier, VerifierPool
from paperlint.lean.replay import ReplayVerifier
from paperlint.lean.verifier import FailureCode, LeanCheck, LeanContext, Outcome
from tests.engine.conftest import example
from tests.lean_edge.test_warm import BAD, CTX, GOOD, FakeBackend, _warm


def test_the_pool_starts_one_worker_per_lease_in_flight_and_no_more(tmp_path):
    made: list[FakeBackend] = []

    def start():
        made.append(FakeBackend())
        return _warm(tmp_path, made[-1])

    pool = VerifierPool(start, 3)
    entered, release = threading.Barrier(4), threading.Event()

    def hold():
        with pool.lease() as worker:
            assert worker.check(CTX, GOOD, timeout_s=5).accepted
            entered.wait(timeout=5)
            release.wait(timeout=5)

    threads = [threading.Thread(target=hold) for _ in range(3)]
    for thread in threads:
        thread.start()
    entered.wait(timeout=5)
    assert len(made) == 3  # three at once: three processes, each with its own header import
    release.set()
    for thread in threads:
        thread.join()
    with pool.lease() as worker:  # an idle warm worker is reused, not a fourth started
        worker.check(CTX, GOOD, timeout_s=5)
    assert len(made) == 3
    pool.close()
    assert all(backend.closed for backend in made)


def test_a_dead_worker_is_closed_and_replaced(tmp_path):
    made: list[FakeBackend] = []

    def start():
        answers = {BAD: ConnectionAbortedError("the REPL closed")} if not made else {}
        made.append(FakeBackend(answers))
        return _warm(tmp_path, made[-1])

    replaced: list[str] = []
    pool = VerifierPool(start, 1, on_replace=replaced.append)
    with pool.lease() as worker:
        answer = worker.check(CTX, BAD, timeout_s=5)
    assert answer.code is FailureCode.DEAD_SERVER and worker.lost
    assert made[0].closed and replaced
    with pool.lease() as worker:
        assert worker.check(CTX, BAD, timeout_s=5).accepted  # the new REPL answers
        assert not worker.lost
    assert len(made) == 2 and pool.replaced == 1
    pool.close()


def test_a_verifier_that_is_not_thread_safe_is_shared_one_call_at_a_time(tmp_path):
    shared = SharedVerifier(_warm(tmp_path, FakeBackend()))
    inside, most = [0], [0]
    lock = threading.Lock()

    def use():
        with shared.lease() as worker:
            with lock:
                inside[0] += 1
                most[0] = max(most[0], inside[0])
            worker.check(CTX, GOOD, timeout_s=5)
            with lock:
                inside[0] -= 1

    threads = [threading.Thread(target=use) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert most[0] == 1


class DiesOnce:
    """A replay worker whose process dies at its third check (the first such worker only)."""

    deaths = 0
    dead: "DiesOnce | None" = None

    def __init__(self, replay):
        self.inner = ReplayVerifier(replay)
        self.is_replay = True
        self.calls = 0
        self.closed = False

    def check(self, context: LeanContext, candidate: str, *, timeout_s: float) -> LeanCheck:
        self.calls += 1
        if self.calls == 3 and DiesOnce.deaths == 0:
            DiesOnce.deaths += 1
            DiesOnce.dead = self
            return LeanCheck(outcome=Outcome.UNAVAILABLE, code=FailureCode.DEAD_SERVER)
        return self.inner.check(context, candidate, timeout_s=timeout_s)

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def close(self):
        self.closed = True
        self.calls_at_close = self.calls


def test_an_action_whose_worker_died_is_planned_again_and_the_run_ends_as_serial(
    tmp_path, monkeypatch, finished_runs
):
    fixture = example("sample-variance")
    replay = fixture / "replay"
    DiesOnce.deaths = 0
    workers: list[DiesOnce] = []

    def start():
        workers.append(DiesOnce(replay))
        return workers[-1]

    def with_pool(spec, emit):
        return opening.LeanEdge(start(), new_worker=start)

    monkeypatch.setattr(opening, "lean_edge", with_pool)
    workdir = tmp_path / "ws"
    start_check(
        CheckRequest(
            paper=fixture / "paper.tex",
            config=Config(),
            workdir=workdir,
            replay=replay,
            report=False,
            run=RunOptions(jobs=3),
        )
    )
    assert DiesOnce.deaths == 1
    reference, _ = finished_runs["sample-variance"]
    assert json.loads((workdir / "results.json").read_text()) == json.loads(
        (reference / "results.json").read_text()
    )
    events = [json.loads(x) for x in (workdir / "events.jsonl").read_text().splitlines()]
    assert any(e["type"] == "lean_restart" and "replaced" in e["reason"] for e in events)
    starts = Counter(
        json.dumps(e["action"], sort_keys=True) for e in events if e["type"] == "action_started"
    )
    assert sorted(starts.values())[-1] == 2  # the lost action was started once more
    lost = [e for e in events if e["type"] == "action_finished" and not e["ok"]]
    assert lost, "the lost action's end is logged"
    dead = DiesOnce.dead
    assert dead is not None and dead.closed  # closed when its action ended ...
    assert dead.calls == dead.calls_at_close  # ... and never leased again
    assert len(workers) <= 3 + 1  # three workers at most, and one replacement

"""`--executor ray` (issue #14): the same actions as Ray tasks on a local cluster write the
same records as the serial run; without Ray installed the option says how to install it.

Everything below the first two tests runs against real Ray: one local cluster for the session
(`ray_session`; `ray_run` joins it instead of starting its own). Ray's tasks and actors run in
other processes, which coverage does not follow (a worker ends with the cluster, by `_exit`),
so the code they run (`remote_action`, `LeanWorker`, `RemoteVerifier`) is also called here in
this process, with real actors behind it. The one stand-in is named where it is used."""

import json
import logging
import os
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from paperlint.cli.root import run
from paperlint.config import Config
from paperlint.engine import executors
from paperlint.engine.actions import Failure
from paperlint.engine.check import CheckRequest, start_check
from paperlint.engine.executors import RunOptions
from paperlint.engine.steps import Failed
from paperlint.errors import InputError
from paperlint.lean.verifier import FailureCode, LeanCheck, LeanContext, Outcome
from paperlint.records.spend import Spend
from tests.engine.conftest import example

NAME = "sample-variance"


def test_without_ray_the_executor_is_a_usage_error_that_says_how_to_install_it(
    monkeypatch, capsys, tmp_path
):
    monkeypatch.setattr(executors, "ray_installed", lambda: False)
    fixture = example(NAME)
    argv = ["check", str(fixture / "paper.tex"), "--executor", "ray", "--workdir", str(tmp_path)]
    assert run(argv) == 2
    err = capsys.readouterr().err
    assert "pip install 'paperlint[ray]'" in err
    assert not (tmp_path / "results.json").exists()


def test_an_address_without_the_ray_executor_is_refused(capsys, tmp_path):
    fixture = example(NAME)
    argv = ["check", str(fixture / "paper.tex"), "--address", "auto", "--workdir", str(tmp_path)]
    assert run(argv) == 2
    assert "--executor ray" in capsys.readouterr().err


# --- real Ray -----------------------------------------------------------------------------


def _check(workdir: Path, *, replay: Path | None = None, **run: object) -> None:
    fixture = example(NAME)
    start_check(
        CheckRequest(
            paper=fixture / "paper.tex",
            config=Config(),
            workdir=workdir,
            replay=replay or fixture / "replay",
            report=False,
            run=RunOptions(**run),  # type: ignore[arg-type]
        )
    )


def _events(workdir: Path) -> list[dict]:
    return [json.loads(x) for x in (workdir / "events.jsonl").read_text().splitlines()]


def _results(workdir: Path) -> dict:
    return json.loads((workdir / "results.json").read_text())


@pytest.fixture
def on_actors(monkeypatch):
    """Every action on an actor: no action on the driver while the actors start."""
    from paperlint.engine import ray_executor

    monkeypatch.setattr(ray_executor, "LOCAL_WHILE_WARMING", False)


def _ran(caplog) -> list[tuple[dict, list[dict]]]:
    """What each Ray runner logged at its end: where its actions ran, its actors' costs."""
    return [r.args for r in caplog.records if r.name == "paperlint.engine.ray_executor"]


def test_actors_write_the_records_threads_write_byte_for_byte(
    ray_session, finished_runs, on_actors, caplog, tmp_path
):
    caplog.set_level(logging.INFO, logger="paperlint.engine.ray_executor")
    workdir, threads = tmp_path / "ray", tmp_path / "threads"
    _check(threads, jobs=2)
    _check(workdir, jobs=2, executor="ray")
    assert (workdir / "results.json").read_bytes() == (threads / "results.json").read_bytes()
    reference, _ = finished_runs[NAME]
    assert _results(workdir) == _results(reference)
    events = _events(workdir)
    starts = [e for e in events if e["type"] == "action_started"]
    ends = [e for e in events if e["type"] == "action_finished"]
    assert len(starts) == len(ends) > 0
    # the same actions as the serial run, each once: no action was lost or redone
    assert Counter(json.dumps(e["action"], sort_keys=True) for e in starts) == Counter(
        json.dumps(e["action"], sort_keys=True)
        for e in _events(reference)
        if e["type"] == "action_started"
    )
    # the model calls made in the actors are logged on the driver, in the one event log
    assert any(e["type"] == "model_call" for e in events)
    assert not any(e["type"] == "lean_restart" for e in events)
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    ((ran, costs),) = _ran(caplog)
    assert ran["actor"] == len(starts) and ran["driver"] == 0
    # a result's steps ran as a chain in one call each: no budget cap, no --until
    assert 0 < ran["chained"] < len(starts)
    assert len(costs) == 2 and sum(c["actions"] for c in costs) >= len(starts)


def test_while_the_actors_start_the_driver_runs_actions_and_the_records_are_the_same(
    ray_session, finished_runs, caplog, tmp_path
):
    from paperlint.engine import ray_executor

    caplog.set_level(logging.INFO, logger="paperlint.engine.ray_executor")
    assert ray_executor.LOCAL_WHILE_WARMING
    # actors of a class of their own: new ones, which take seconds to start
    monkeypatch = pytest.MonkeyPatch()

    class Fresh(ray_executor.ActionActor):
        pass

    with monkeypatch.context() as patched:
        patched.setattr(ray_executor, "ActionActor", Fresh)
        _check(tmp_path / "ws", jobs=2, executor="ray")
    reference, _ = finished_runs[NAME]
    assert _results(tmp_path / "ws") == _results(reference)
    ((ran, _),) = _ran(caplog)
    assert ran["driver"] > 0  # the first action did not wait for an actor


def test_an_actor_that_dies_mid_run_is_replaced_and_the_run_ends_as_serial(
    ray_session, finished_runs, on_actors, monkeypatch, tmp_path
):
    from paperlint.engine import ray_executor

    marker = tmp_path / "an-actor-died"

    class DiesOnce(ray_executor.ActionActor):
        """The real actor, whose process exits at its third action (the first actor to get
        there only: the marker file says one did). Defined here, it reaches the actor
        process by value (cloudpickle)."""

        def __init__(self, created: float = 0.0) -> None:
            ray_executor.ActionActor.__init__(self, created)
            self.calls = 0

        def step(self, root, run_id, results, action, spent):
            self.calls += 1
            if self.calls == 3:
                try:
                    os.close(os.open(marker, os.O_CREAT | os.O_EXCL))
                except FileExistsError:
                    pass
                else:
                    os._exit(1)
            return ray_executor.ActionActor.step(self, root, run_id, results, action, spent)

    monkeypatch.setattr(ray_executor, "ActionActor", DiesOnce)
    workdir = tmp_path / "ws"
    _check(workdir, jobs=2, executor="ray")
    assert marker.exists()
    reference, _ = finished_runs[NAME]
    assert _results(workdir) == _results(reference)
    events = _events(workdir)
    assert [e["reason"] for e in events if e["type"] == "lean_restart"] == [
        "worker died during an action; replaced"
    ]
    starts = Counter(
        json.dumps(e["action"], sort_keys=True) for e in events if e["type"] == "action_started"
    )
    assert sorted(starts.values())[-1] == 2  # the lost action was started once more
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))


@pytest.fixture(scope="module")
def drafted(tmp_path_factory):
    """A workspace of the example stopped after its drafts (its next action gates a statement,
    asking the model and Lean)."""
    base = tmp_path_factory.mktemp("ray-drafted")
    workdir = base / "ws"
    fixture = example(NAME)
    start_check(
        CheckRequest(
            paper=fixture / "paper.tex",
            config=Config(),
            workdir=workdir,
            replay=fixture / "replay",
            report=False,
            until="drafted",
        )
    )
    return workdir


def _serial(root: Path):
    """The workspace's results, the action the planner starts next, and that action run the
    serial way: this process's opening of the run, its own verifier, a collecting journal."""
    from paperlint.blueprint.model import Blueprint
    from paperlint.engine.execute import execute
    from paperlint.engine.opening import open_run
    from paperlint.engine.plan import ready
    from paperlint.preflight.model import Inventory
    from paperlint.records import read_record
    from paperlint.records.journal import Journal
    from paperlint.records.workspace import open_workspace
    from paperlint.spec import read_spec

    ws = open_workspace(root)
    journal = Journal(None)
    inventory, blueprint = (
        read_record(ws.inventory, Inventory),
        read_record(ws.blueprint, Blueprint),
    )
    run = open_run(
        ws, read_spec(ws.config), inventory=inventory, blueprint=blueprint, journal=journal
    )
    ctx = run.ctx
    results = ws.load_results()
    actions = ready(results, list(ctx.order), run.policy, Spend(), deps=ctx.deps)
    assert isinstance(actions, list) and actions, actions
    action = actions[0]
    return ctx, results, action, execute(ctx, results, action), [e.as_event() for e in journal.kept]


def _timeless(events) -> list[dict]:
    return [{k: v for k, v in e.items() if k not in ("duration_s", "ts")} for e in events]


def _wait_dead(ray, actor, *, within_s: float = 60.0) -> None:
    """Return once `actor` is dead. `ray.kill` only asks the cluster to kill it (the request
    goes through the GCS to the actor's process): a call made right after it can still reach
    the live actor and be answered, as it was under load (2 in 60 calls, with three busy loops
    on two cores). So a test waits for the death it asked for before it relies on it."""
    import time

    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        try:
            ray.get(actor.__ray_ready__.remote())
        except ray.exceptions.RayActorError:
            return
        time.sleep(0.05)
    raise AssertionError(f"the actor was still answering {within_s:.0f} s after ray.kill")


def test_an_actor_runs_an_action_as_the_serial_loop_does_from_the_records_it_needs(
    drafted, tmp_path
):
    from paperlint.engine.execute import needed_records
    from paperlint.engine.ray_executor import ActionActor

    local, remote = tmp_path / "local", tmp_path / "remote"
    shutil.copytree(drafted, local)
    shutil.copytree(drafted, remote)
    ctx, results, action, expected, serial_events = _serial(local)
    assert action.kind == "gate"
    needed = needed_records(ctx, results, action)
    wanted = {action.result, *ctx.deps.get(action.result, [])}
    assert {r.id for r in needed.results} >= wanted
    assert len(needed.results) < len(results.results)  # only what the action reads
    # The actor's class, in this process: it opens the run itself, with its own verifier.
    actor = ActionActor(created=0.0)
    root = str(remote)
    outcome, kept, lost = actor.step(root, "run-1", needed, action, (5, 0.25))
    assert not lost
    assert outcome == expected and type(outcome) is type(expected)
    events = [e.as_event() for e in kept]
    assert _timeless(events) == _timeless(serial_events)
    assert [e["type"] for e in events] == ["model_call", "lean_check"]
    assert actor.journal.spend.calls == 5 + 1  # counted from where the run was
    # the next action of the same run reuses the opened context; another run opens afresh
    opened = actor._opened
    assert actor.step(root, "run-1", needed, action, (6, 0.25))[0] == expected
    assert actor._opened is opened
    assert actor.step(root, "run-2", needed, action, (6, 0.25))[0] == expected
    assert actor._opened is not opened
    costs = actor.costs()
    assert costs["actions"] == 3 and len(costs["open_s"]) == 2
    assert costs["first_action_s"] is not None and costs["start_s"] is None


class _DyingRepl:
    """A stand-in for a warm REPL that dies under every check (a live pool replaces it)."""

    is_replay = False
    thread_safe = False

    def __init__(self) -> None:
        self.closed = False

    def check(self, context, candidate, *, timeout_s):
        return LeanCheck(outcome=Outcome.UNAVAILABLE, code=FailureCode.DEAD_SERVER, hint="died")

    def command(self, context, cmd, *, timeout_s, all_tactics=False):
        return self.check(context, cmd, timeout_s=timeout_s)

    def close(self) -> None:
        self.closed = True


def test_a_repl_that_dies_in_an_actor_is_replaced_by_its_pool_and_the_action_lost(
    drafted, monkeypatch, tmp_path
):
    from paperlint.engine import execute as execute_module
    from paperlint.engine.check import worker_pool
    from paperlint.engine.opening import LeanEdge
    from paperlint.engine.ray_executor import ActionActor, _Lean

    local, root = tmp_path / "local", tmp_path / "ws"
    shutil.copytree(drafted, local)
    shutil.copytree(drafted, root)
    _, results, action, expected, _ = _serial(local)

    def checks_lean(ctx, results, action):
        """A stand-in for the step: one Lean check on the verifier the actor leased it."""
        ctx.verifier.check(LeanContext(header=""), "theorem t : True := trivial", timeout_s=5)
        return expected

    monkeypatch.setattr(execute_module, "execute", checks_lean)
    actor = ActionActor()
    actor._open(str(root), "run")  # the run opened; its Lean replaced below
    started: list[_DyingRepl] = []

    def new_worker():
        started.append(_DyingRepl())
        return started[-1]

    edge = LeanEdge(new_worker(), new_worker=new_worker)
    actor._lean = _Lean(None, edge, worker_pool(edge, actor.journal.emit, 1))
    outcome, kept, lost = actor.step(str(root), "run", results, action, (0, 0.0))
    assert lost and outcome == expected
    assert kept[-1].as_event() == {
        "type": "lean_restart",
        "reason": "worker died during an action; replaced",
        "rss_mb": 0,
    }
    assert started[0].closed  # the dead one was closed; the next action starts a new one


def _runner(ctx):
    from paperlint.engine.ray_executor import RayRunner

    return RayRunner(ctx, live_lean=False, spend=lambda: Spend(calls=3, cost_usd=0.0))


def _drafted_runner(drafted: Path, tmp_path: Path):
    """A copy of the drafted workspace, its serial run (`_serial`) and a runner on it."""
    root = tmp_path / "ws"
    shutil.copytree(drafted, root)
    ctx, *rest = _serial(root)
    return (root, ctx, *rest, _runner(ctx))


def _no_local_work():
    raise AssertionError("with every action on an actor, nothing runs in here")


def test_the_runner_sends_actions_to_its_actors_and_reuses_them(
    ray_session, drafted, on_actors, tmp_path
):
    root, ctx, results, action, expected, _, runner = _drafted_runner(drafted, tmp_path)
    first = runner.submit(_no_local_work, results, action).result(timeout=120)
    assert first.outcome == expected and not first.lost
    assert [e.type for e in first.events] == ["model_call", "lean_check"]
    second = runner.submit(_no_local_work, results, action).result(timeout=120)
    assert second.outcome == expected
    assert len(runner.actors) == 1 and runner.ran == {"actor": 2, "driver": 0, "chained": 0}
    (actor,) = runner.actors
    runner.close()
    # put back for the next run of this session (a batch's next paper), not killed
    assert ray_session.get(actor.costs.remote())["actions"] >= 2
    from paperlint.engine.ray_executor import MB, REPLAY_WORKER_MB, ActionActor, slots

    assert actor in slots(ActionActor, REPLAY_WORKER_MB * MB)._free


def test_an_actor_goes_on_to_the_next_action_until_its_runner_halts(
    ray_session, drafted, on_actors, tmp_path
):
    from paperlint.engine.ray_executor import RayRunner

    root, ctx, results, first, _, _, plain = _drafted_runner(drafted, tmp_path)
    plain.close()
    # a proposition with no dependency: after its gate come its proof and its audit (the
    # first action, a definition's gate, settles its result: nothing to go on to)
    action = first.model_copy(update={"result": "prop:square"})
    assert ctx.deps["prop:square"] == [] and results.get("prop:square").stage == "drafted"
    runner = RayRunner(ctx, live_lean=False, spend=lambda: Spend(), chain=True)
    done = runner.submit(_no_local_work, results, action).result(timeout=120)
    first_outcome = done.outcome
    went_on = []
    while done.then is not None:  # the gate, then the result's next steps, in one call
        following, future = done.then
        assert following.result == action.result
        went_on.append(following.kind)
        done = future.result(timeout=120)
    assert went_on and went_on[0] == "prove"
    assert runner.ran["chained"] == len(went_on)
    runner.halt()
    ray_session.get(runner.halts, timeout=60)
    again = runner.submit(_no_local_work, results, action).result(timeout=120)
    assert again.outcome == first_outcome and again.then is None  # halted: one, no more
    runner.close()


def test_an_action_whose_actor_died_is_lost_and_the_actor_replaced(
    ray_session, drafted, on_actors, tmp_path
):
    root, ctx, results, action, _, _, runner = _drafted_runner(drafted, tmp_path)
    (dead,) = runner.actors
    ray_session.kill(dead)
    _wait_dead(ray_session, dead)
    done = runner.submit(_no_local_work, results, action).result(timeout=120)
    assert done.lost
    assert isinstance(done.outcome, Failed) and done.outcome.failure is Failure.LEAN_UNAVAILABLE
    assert done.outcome.action == action
    assert [e.as_event() for e in done.events] == [
        {"type": "lean_restart", "reason": "worker died during an action; replaced", "rss_mb": 0}
    ]
    assert len(runner.actors) == 2 and runner.actors[0] is dead
    again = runner.submit(_no_local_work, results, action).result(timeout=120)
    assert not again.lost  # on the new actor
    runner.close()


def test_an_action_that_raises_raises_on_the_driver_and_its_actor_serves_on(
    ray_session, drafted, on_actors, tmp_path
):
    root, ctx, results, action, expected, _, runner = _drafted_runner(drafted, tmp_path)
    unknown = action.model_copy(update={"result": "no-such-result"})
    with pytest.raises(KeyError, match="no-such-result"):
        runner.submit(_no_local_work, results, unknown).result(timeout=120)
    assert runner.submit(_no_local_work, results, action).result(timeout=120).outcome == expected
    assert len(runner.actors) == 1
    runner.close()


def test_a_batch_starts_its_actors_once_for_all_its_papers(
    ray_session, on_actors, caplog, tmp_path
):
    from paperlint.engine import ray_executor
    from paperlint.engine.batch import BatchRequest, run_batch

    caplog.set_level(logging.INFO, logger="paperlint.engine.ray_executor")

    class Batch(ray_executor.ActionActor):
        pass

    monkeypatch = pytest.MonkeyPatch()
    with monkeypatch.context() as patched:
        patched.setattr(ray_executor, "ActionActor", Batch)
        papers = [example(NAME) / "paper.tex", example("proportions") / "paper.tex"]
        rows = run_batch(
            BatchRequest(
                papers=papers,
                config_for=lambda _: Config(),
                workroot=tmp_path,
                replays=True,
                run=RunOptions(jobs=2, executor="ray"),
            )
        )
    assert [r.error for r in rows] == [None, None]
    first, second = _ran(caplog)
    # the same two actors served both papers, each opening each paper's run once
    assert {c["start_s"] for c in first[1]} == {c["start_s"] for c in second[1]}
    assert sorted(len(c["open_s"]) for c in second[1]) == [2, 2]


def test_a_journal_serving_one_action_after_another_starts_afresh_at_each():
    from paperlint.records.events import Charge
    from paperlint.records.journal import Journal

    journal = Journal(None)
    journal.begin(Spend(calls=7, cost_usd=0.5))
    journal.emit(Charge(calls=2, result="lem:a", repair=0, try_=2))
    assert journal.spend == Spend(calls=9, cost_usd=0.5) and len(journal.kept) == 1
    journal.begin(Spend(calls=10, cost_usd=0.5))
    assert journal.spend == Spend(calls=10, cost_usd=0.5) and journal.kept == []


def _kept_actors(ray) -> dict[str, object]:
    """The action actors kept on this session's cluster, by name."""
    from paperlint.engine.ray_executor import NAMESPACE

    names = [a["name"] for a in ray.util.list_named_actors(all_namespaces=True)]
    return {
        n: ray.get_actor(n, namespace=NAMESPACE) for n in names if n.startswith("paperlint-action-")
    }


@pytest.fixture
def no_kept_actors(ray_session):
    """Kept actors are detached: killed before and after a test that counts them."""

    def kill_all() -> None:
        for actor in _kept_actors(ray_session).values():
            ray_session.kill(actor)
            _wait_dead(ray_session, actor)

    kill_all()
    yield
    kill_all()


def test_check_joins_a_running_cluster_at_its_address_and_its_actors_serve_the_next_run(
    ray_session, finished_runs, no_kept_actors, tmp_path
):
    """`--address`: a second driver (the CLI, in its own process) joins this session's
    cluster, runs its actions there (the same records as the serial run) and leaves the
    cluster running, and its actors on it: the next run on that cluster takes the same actors
    (no process started, nothing imported again)."""
    address = ray_session.get_runtime_context().gcs_address
    fixture = example(NAME)
    reference, _ = finished_runs[NAME]
    kept: list[dict[str, object]] = []
    for run_ in ("first", "second"):
        workdir = tmp_path / run_
        argv = [
            *(sys.executable, "-m", "paperlint", "check", str(fixture / "paper.tex")),
            *("--replay", str(fixture / "replay"), "--workdir", str(workdir)),
            *("--jobs", "2", "--executor", "ray", "--address", address),
        ]
        out = subprocess.run(argv, capture_output=True, text=True, timeout=300)
        assert out.returncode == 1, out.stderr  # the example's two issues are recorded
        assert _results(workdir) == _results(reference)
        kept.append(_kept_actors(ray_session))
    assert len(kept[0]) == 2 and kept[1].keys() == kept[0].keys()
    costs = ray_session.get([a.costs.remote() for a in kept[1].values()])
    assert [c["leases"] for c in costs] == [2, 2]  # one process each, leased by both runs


_HOLD = """
import os, sys
import ray
from paperlint.engine.ray_executor import MB, REPLAY_WORKER_MB, ActionActor, KeptSlots
ray.init(address=sys.argv[1], include_dashboard=False, log_to_driver=False)
taken = KeptSlots(ActionActor, REPLAY_WORKER_MB * MB, lease_s=float(sys.argv[2])).take(2)
print(" ".join(a._actor_id.hex() for a in taken), flush=True)
os._exit(0)  # dies holding them: no release
"""


def test_a_kept_actor_serves_one_driver_at_a_time_and_outlives_one_that_died(
    ray_session, no_kept_actors
):
    from paperlint.engine.ray_executor import (
        MB,
        REPLAY_WORKER_MB,
        ActionActor,
        KeptSlots,
        code_key,
    )

    def ids(actors) -> set[str]:
        return {a._actor_id.hex() for a in actors}

    here = KeptSlots(ActionActor, REPLAY_WORKER_MB * MB)
    mine = here.take(2)
    # another driver, while these two are held here, gets two others
    address = ray_session.get_runtime_context().gcs_address
    out = subprocess.run(
        [sys.executable, "-c", _HOLD, address, "3"], capture_output=True, text=True, timeout=300
    )
    died = time.monotonic()
    assert out.returncode == 0, out.stderr
    theirs = set(out.stdout.split())
    assert len(theirs) == 2 and not theirs & ids(mine)
    # an actor held is refused to everyone else, even this process's other takes
    asked = [a.lease.remote("someone else", code_key(), 60.0) for a in mine]
    assert ray_session.get(asked) == ["held", "held"]
    here.put_back(mine)
    # given back, and theirs held by a driver that died and renews their lease no more (3 s):
    # the same four processes serve again
    time.sleep(max(0.0, died + 3.5 - time.monotonic()))
    there = KeptSlots(ActionActor, REPLAY_WORKER_MB * MB)
    again = there.take(4)
    assert ids(again) == ids(mine) | theirs
    # never by a driver running other code
    there.put_back(again[:1])
    assert ray_session.get(again[0].lease.remote("free", "other code", 60.0)) == "other code"
    assert ray_session.get(again[0].lease.remote("free", code_key(), 60.0)) == "leased"


def test_a_driver_whose_code_the_cluster_does_not_run_keeps_no_actor(
    ray_session, no_kept_actors, monkeypatch
):
    """The cluster's workers import other paperlint code than the driver's (here: the driver
    says its code is other): the actor started under the driver's name refuses, is killed, and
    the run takes actors of its own, killed when the session ends."""
    from paperlint.engine import ray_executor
    from paperlint.engine.ray_executor import MB, REPLAY_WORKER_MB, ActionActor, KeptSlots

    monkeypatch.setattr(ray_executor, "code_key", lambda: "0" * 64)
    kept = KeptSlots(ActionActor, REPLAY_WORKER_MB * MB)
    (actor,) = kept.take(1)
    assert ray_session.get(actor.costs.remote())["leases"] == 0  # a plain actor of this run
    deadline = time.monotonic() + 30
    while _kept_actors(ray_session) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _kept_actors(ray_session) == {}
    kept.put_back([actor])
    kept.kill_all()
    _wait_dead(ray_session, actor)


def test_a_kept_actor_exits_when_idle_and_held_by_no_one(ray_session, no_kept_actors):
    from paperlint.engine.ray_executor import MB, REPLAY_WORKER_MB, ActionActor, KeptSlots

    kept = KeptSlots(ActionActor, REPLAY_WORKER_MB * MB, lease_s=60.0, idle_s=1.0)
    (actor,) = kept.take(1)
    time.sleep(3.0)  # idle, but held: it stays
    assert ray_session.get(actor.costs.remote())["leases"] == 1
    kept.put_back([actor])
    _wait_dead(ray_session, actor, within_s=30.0)
    assert _kept_actors(ray_session) == {}


def test_check_starts_its_own_cluster_in_the_background_and_ends_as_serial(finished_runs, tmp_path):
    """The CLI's default with Ray, in a process of its own (this one has the session's
    cluster): a local cluster started on a thread while the driver runs the first actions,
    stopped at the end; the same records as the serial run."""
    pytest.importorskip("ray", reason="Ray is an optional extra: pip install 'paperlint[ray]'")
    fixture = example(NAME)
    workdir = tmp_path / "ws"
    argv = [
        *(sys.executable, "-m", "paperlint", "check", str(fixture / "paper.tex")),
        *("--replay", str(fixture / "replay"), "--workdir", str(workdir)),
        *("--jobs", "2", "--executor", "ray"),
    ]
    out = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    assert out.returncode == 1, out.stderr  # the example's two issues are recorded
    assert "SIGTERM handler" not in out.stderr  # Ray's warning about its thread is kept quiet
    reference, _ = finished_runs[NAME]
    assert _results(workdir) == _results(reference)


BACKGROUND_CLUSTER = """
import time, ray
from paperlint.engine.executors import RunOptions, ray_cluster

with ray_cluster(RunOptions(executor="ray"), background=True) as ready:
    ready.result(timeout=240)
    time.sleep(3)  # long after the starting thread's own work ended
    print(ray.get(ray.remote(lambda: "served").options(num_cpus=0).remote(), timeout=120))
print(ray.is_initialized())
"""


def test_a_cluster_started_in_the_background_outlives_the_start(tmp_path):
    """Ray kills its processes when the thread that started them ends (PR_SET_PDEATHSIG): the
    cluster started on a thread of its own must still serve after it came up (a process of
    its own: this one has the session's cluster)."""
    pytest.importorskip("ray", reason="Ray is an optional extra: pip install 'paperlint[ray]'")
    out = subprocess.run(
        [sys.executable, "-c", BACKGROUND_CLUSTER],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.split() == ["served", "False"]


def test_a_cluster_that_fails_to_start_leaves_every_action_to_the_driver(drafted, caplog, tmp_path):
    from concurrent.futures import Future

    from paperlint.engine.ray_executor import RayRunner

    caplog.set_level(logging.INFO, logger="paperlint.engine.ray_executor")
    root = tmp_path / "ws"
    shutil.copytree(drafted, root)
    ctx, results, action, _, _ = _serial(root)
    failed: Future[None] = Future()
    failed.set_exception(RuntimeError("no room for a raylet"))
    runner = RayRunner(ctx, live_lean=False, spend=Spend, cluster=failed)
    done = runner.submit(lambda: "ran here", results, action).result(timeout=60)
    assert done == "ran here" and runner.ran == {"actor": 0, "driver": 1, "chained": 0}
    runner.close()
    assert "Ray did not start (no room for a raylet)" in caplog.text


def test_an_address_that_refuses_to_be_joined_stops_the_run_with_its_usage_error(drafted, tmp_path):
    """`--address` is joined on a thread while the driver runs the first actions; a cluster
    that refused this driver (its token) stops the run at its next action with the error that
    says what to do, not a run on this machine's threads."""
    from concurrent.futures import Future

    from paperlint.engine.ray_executor import RayRunner

    root = tmp_path / "ws"
    shutil.copytree(drafted, root)
    ctx, results, action, _, _ = _serial(root)
    joining: Future[None] = Future()
    runner = RayRunner(ctx, live_lean=False, spend=Spend, cluster=joining, kept=True)
    joining.set_exception(InputError("--address h:1: refused", hint=executors.AUTH_HINT))
    with pytest.raises(InputError, match="refused"):
        runner.submit(_no_local_work, results, action)
    runner.close()


def test_an_address_nobody_answers_at_is_a_usage_error_not_minutes_of_retries():
    import socket

    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]  # closed again when the block ends: nobody listens
    for address in (f"127.0.0.1:{port}", f"ray://127.0.0.1:{port}"):
        with pytest.raises(InputError, match="no Ray cluster answers there") as caught:
            executors.reachable(address)
        assert "ray start --head" in (caught.value.hint or "")
    with pytest.raises(InputError, match="not HOST:PORT"):
        executors.reachable("127.0.0.1:http")
    executors.reachable("auto")  # Ray finds that one itself


def test_the_address_of_a_running_cluster_is_reachable(ray_session):
    executors.reachable(ray_session.get_runtime_context().gcs_address)


@pytest.mark.parametrize(("set_by_user", "seen"), [(None, "0"), ("1000", "1000")])
def test_ray_starts_with_task_events_off_unless_the_user_set_them(monkeypatch, set_by_user, seen):
    """Ray reads `RAY_task_events_report_interval_ms` when `ray.init` starts the driver's core
    worker: the default is set before that call (on the caller's thread, before the one that
    joins), and a value the user set stands (docs/ray.md). Stand-ins: `ray.init`, which
    records the variable as it would read it, and the session's cluster seen as not joined."""
    import ray

    if set_by_user is None:
        monkeypatch.delenv(executors.TASK_EVENTS, raising=False)
    else:
        monkeypatch.setenv(executors.TASK_EVENTS, set_by_user)
    read: list[str | None] = []
    monkeypatch.setattr(ray, "init", lambda **_: read.append(os.environ.get(executors.TASK_EVENTS)))
    monkeypatch.setattr(ray, "is_initialized", lambda: False)  # this session's is joined
    monkeypatch.setattr(ray, "shutdown", lambda: None)
    with executors.ray_cluster(RunOptions(executor="ray", jobs=2), background=True) as ready:
        ready.result(timeout=60)
    assert read == [seen]


def test_an_actor_keeps_a_warm_repl_for_the_next_paper_only_if_its_lean_settings_match(tmp_path):
    from paperlint.engine.opening import lean_kept_by
    from paperlint.spec import Edges, spec_for

    paper = example(NAME) / "paper.tex"
    live = lean_kept_by(spec_for(Config(), paper))
    other_paper = lean_kept_by(spec_for(Config(), example("proportions") / "paper.tex"))
    assert live is not None and live == other_paper  # the same REPL serves both
    slower = Config.model_validate({"lean": {"timeout_s": 999}})
    assert lean_kept_by(spec_for(slower, paper)) != live
    for edges in (Edges(replay=tmp_path), Edges(lean_replay=tmp_path), Edges(record=tmp_path)):
        assert lean_kept_by(spec_for(Config(), paper, edges=edges)) is None

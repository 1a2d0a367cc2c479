"""`--executor ray` (issue #14): the same actions as Ray tasks on a local cluster write the
same records as the serial run; without Ray installed the option says how to install it.

Everything below the first two tests runs against real Ray: one local cluster for the session
(`ray_session`; `ray_run` joins it instead of starting its own). Ray's tasks and actors run in
other processes, which coverage does not follow (a worker ends with the cluster, by `_exit`),
so the code they run (`remote_action`, `LeanWorker`, `RemoteVerifier`) is also called here in
this process, with real actors behind it. The one stand-in is named where it is used."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

import pytest

from paperlint.agents.transcript import unstamped
from paperlint.cli.root import run
from paperlint.config import Config
from paperlint.engine import executors
from paperlint.engine.actions import Failure
from paperlint.engine.check import CheckRequest, start_check
from paperlint.engine.executors import RunOptions
from paperlint.engine.steps import Failed
from paperlint.errors import InputError
from paperlint.lean.replay import ReplayVerifier
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


def test_ray_tasks_write_the_records_the_serial_run_writes(ray_session, finished_runs):
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp) / "ws"
        _check(workdir, jobs=2, executor="ray")
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
        # the model calls made in the tasks are logged on the driver, in the one event log
        assert any(e["type"] == "model_call" for e in events)
        assert not any(e["type"] == "lean_restart" for e in events)
        assert [e["seq"] for e in events] == list(range(1, len(events) + 1))


def test_an_actor_that_dies_mid_run_is_replaced_and_the_run_ends_as_serial(
    ray_session, finished_runs, monkeypatch, tmp_path
):
    from paperlint.engine import ray_executor

    class DiesOnce(ray_executor.LeanWorker):
        """The real actor, whose process exits at its third check (the first actor to get
        there only: the marker file says one did). Defined here, it reaches the actor
        process by value (cloudpickle)."""

        def __init__(self, root: str) -> None:
            ray_executor.LeanWorker.__init__(self, root)
            self.marker = Path(root).parent / "an-actor-died"
            self.checks = 0

        def call(self, method, *args, **kwargs):
            if method == "check":
                self.checks += 1
                if self.checks == 3:
                    try:
                        os.close(os.open(self.marker, os.O_CREAT | os.O_EXCL))
                    except FileExistsError:
                        pass
                    else:
                        os._exit(1)
            return ray_executor.LeanWorker.call(self, method, *args, **kwargs)

    monkeypatch.setattr(ray_executor, "LeanWorker", DiesOnce)
    workdir = tmp_path / "ws"
    _check(workdir, jobs=2, executor="ray")
    assert (tmp_path / "an-actor-died").exists()
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
    asking the model and Lean), run on a copy of the replay with one answer more: a check at
    which the REPL dies (`DYING`)."""
    base = tmp_path_factory.mktemp("ray-drafted")
    replay = base / "replay"
    shutil.copytree(example(NAME) / "replay", replay)
    with (replay / "lean.jsonl").open("a", encoding="utf-8") as out:
        out.write(json.dumps(_dying_entry()) + "\n")
    # the tests below ask a draft again out of its order (its prompt then differs from the
    # one the fixture's answer was stamped for): a hand-made variant, so unstamped
    transcript = replay / "transcript.jsonl"
    rows = [json.loads(line) for line in transcript.read_text(encoding="utf-8").splitlines()]
    transcript.write_text(
        "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in unstamped(rows)),
        encoding="utf-8",
    )
    workdir = base / "ws"
    fixture = example(NAME)
    start_check(
        CheckRequest(
            paper=fixture / "paper.tex",
            config=Config(),
            workdir=workdir,
            replay=replay,
            report=False,
            until="drafted",
        )
    )
    return workdir


CONTEXT = LeanContext(header="import Mathlib")
DYING = "theorem the_repl_dies : True := trivial"


def _dying_entry() -> dict:
    from paperlint.lean.replay import key_for_check

    return {
        "kind": "check",
        "key": key_for_check(CONTEXT, DYING),
        "request": {"header": CONTEXT.header, "accepted": [], "candidate": DYING},
        "raise": {"type": "ConnectionAbortedError", "message": "the REPL closed"},
    }


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
    return results, action, execute(ctx, results, action), [e.as_event() for e in journal.kept]


def _timeless(events) -> list[dict]:
    return [{k: v for k, v in e.items() if k not in ("duration_s", "ts")} for e in events]


def _kill(ray, actor) -> None:
    """Kill `actor` and return once it is dead (`_wait_dead`)."""
    ray.kill(actor)
    _wait_dead(ray, actor)


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


def test_a_task_runs_its_action_as_the_serial_loop_does_and_hands_back_its_events(
    ray_session, drafted, tmp_path
):
    from paperlint.engine import ray_executor

    local, remote = tmp_path / "local", tmp_path / "remote"
    shutil.copytree(drafted, local)
    shutil.copytree(drafted, remote)
    results, action, expected, serial_events = _serial(local)
    assert action.kind == "gate"
    # The task's body, called in this process, with a real actor answering its Lean calls.
    actor = ray_session.remote(ray_executor.LeanWorker).remote(str(remote))
    root = str(remote)
    outcome, kept, lost = ray_executor.remote_action(root, results, action, (5, 0.25), actor)
    events = [e.as_event() for e in kept]
    assert not lost
    assert outcome == expected and type(outcome) is type(expected)
    assert _timeless(events) == _timeless(serial_events)
    assert [e["type"] for e in events] == ["model_call", "lean_check"]
    # a worker's next action reuses the context it built; a rewritten snapshot rebuilds it
    built = dict(ray_executor._CACHE)
    assert ray_executor.remote_action(root, results, action, (5, 0.25), actor)[0] == expected
    assert built == ray_executor._CACHE
    config = Path(root) / "paperlint.toml"
    config.write_text(config.read_text() + "\n", encoding="utf-8")
    assert ray_executor.remote_action(root, results, action, (5, 0.25), actor)[0] == expected
    assert len(ray_executor._CACHE) == len(built) + 1
    ray_session.kill(actor)


def test_a_task_journal_keeps_its_events_and_counts_its_spend_from_where_the_run_was():
    from paperlint.records.events import Charge, ModelCallEvent
    from paperlint.records.journal import Journal

    journal = Journal(None, spent=Spend(calls=7, cost_usd=0.5))
    assert journal.spend == Spend(calls=7, cost_usd=0.5)
    call = {"role": "gate", "model": "m", "task": "gate", "result": "lem:a", "obligation": None}
    call |= {"attempt": 1, "repair": 0, "tokens_in": 1, "tokens_out": 1, "duration_s": 0.0}
    call |= {"replay": True, "prompt_sha256": "", "prompt_drift": False, "ok": True}
    journal.emit(ModelCallEvent(**call, cost_usd=0.25))
    journal.emit(Charge(calls=2, result="lem:a", repair=0, try_=2))
    assert [(e.type, e.result) for e in journal.kept] == [
        ("model_call", "lem:a"),
        ("charge", "lem:a"),
    ]
    assert journal.spend == Spend(calls=9, cost_usd=0.75)


def test_the_remote_verifier_relays_the_actors_answers_and_notes_a_death(ray_session, drafted):
    from paperlint.engine.opening import lean_edge
    from paperlint.engine.ray_executor import LeanWorker, RemoteVerifier
    from paperlint.spec import read_spec

    root = str(drafted)
    local = lean_edge(read_spec(Path(root) / "paperlint.toml"), None).verifier
    assert isinstance(local, ReplayVerifier)
    recorded = next(
        e for e in map(json.loads, local.path.read_text().splitlines()) if e["kind"] == "check"
    )
    context = LeanContext(
        header=recorded["request"]["header"], accepted=tuple(recorded["request"]["accepted"])
    )
    candidate = recorded["request"]["candidate"]
    actor = ray_session.remote(LeanWorker).remote(root)
    remote = RemoteVerifier(actor, is_replay=True)
    answer = remote.check(context, candidate, timeout_s=5)
    assert answer == local.check(context, candidate, timeout_s=5) and answer.replay
    names = ["lem_mean_max"]
    assert remote.print_axioms(context, names, timeout_s=5) == local.print_axioms(
        context, names, timeout_s=5
    )
    lean_file = drafted / "audits" / "def_mean" / "draft-1.lean"
    assert remote.final_check(lean_file, names, timeout_s=5) == local.final_check(
        lean_file, names, timeout_s=5
    )
    assert remote.elaborate_statements(context, names, timeout_s=5) == local.elaborate_statements(
        context, names, timeout_s=5
    )
    assert not remote.lost
    # The actor lives but its REPL died under the action (the recording says so): the answer
    # is relayed and the action lost, as in the local pool.
    died = remote.check(CONTEXT, DYING, timeout_s=5)
    assert died.code is FailureCode.DEAD_SERVER and remote.lost
    # The actor itself is gone: every call answers "dead server" and the action is lost.
    _kill(ray_session, actor)
    gone = RemoteVerifier(actor, is_replay=True)
    assert gone.check(context, candidate, timeout_s=5) == LeanCheck(
        outcome=Outcome.UNAVAILABLE, code=FailureCode.DEAD_SERVER, hint="Lean actor died"
    )
    axioms = gone.print_axioms(context, names, timeout_s=5)
    assert axioms.code is FailureCode.DEAD_SERVER and axioms.axioms == {"lem_mean_max": None}
    final = gone.final_check(lean_file, names, timeout_s=5)
    assert final.code is FailureCode.DEAD_SERVER and final.outcome is Outcome.UNAVAILABLE
    assert gone.elaborate_statements(context, names, timeout_s=5) is None
    assert gone.lost
    gone.close()


def test_a_lean_worker_answers_verifier_methods_only(drafted):
    from paperlint.engine.ray_executor import LeanWorker
    from paperlint.lean.verifier import UnavailableVerifier

    worker = LeanWorker(str(drafted))  # the actor's class, in this process
    assert isinstance(worker.verifier, ReplayVerifier)
    assert worker.call("check", CONTEXT, DYING, timeout_s=5).code is FailureCode.DEAD_SERVER
    with pytest.raises(ValueError, match="not a verifier method"):
        worker.call("close")
    worker.verifier = UnavailableVerifier("no Lean here")  # it has no elaborate_statements
    assert worker.call("elaborate_statements", CONTEXT, ["x"], timeout_s=5) is None
    assert worker.call("check", CONTEXT, DYING, timeout_s=5).outcome is Outcome.UNAVAILABLE


def _no_local_work():
    raise AssertionError("a Ray runner runs the action from (results, action), never in here")


def _runner(root: Path):
    from paperlint.engine.ray_executor import RayRunner

    return RayRunner(root, live_lean=False, spend=lambda: Spend(calls=3, cost_usd=0.0))


def _drafted_runner(drafted: Path, tmp_path: Path):
    """A copy of the drafted workspace, its serial run (`_serial`) and a runner on it."""
    root = tmp_path / "ws"
    shutil.copytree(drafted, root)
    return (root, *_serial(root), _runner(root))


def test_the_runner_runs_actions_as_tasks_and_reuses_an_idle_actor(ray_session, drafted, tmp_path):
    root, results, action, expected, _, runner = _drafted_runner(drafted, tmp_path)
    first = runner.submit(_no_local_work, results, action).result(timeout=120)
    assert first.outcome == expected and not first.lost
    assert [e.type for e in first.events] == ["model_call", "lean_check"]
    second = runner.submit(_no_local_work, results, action).result(timeout=120)
    assert second.outcome == expected
    assert runner.started == 1  # the idle actor was leased again
    (actor,) = runner._idle
    runner.close()
    assert runner._idle == []
    _wait_dead(ray_session, actor)  # closing killed it


def test_an_action_whose_actor_died_is_lost_and_the_actor_dropped(ray_session, drafted, tmp_path):
    from paperlint.engine.ray_executor import LeanWorker

    root, results, action, _, _, runner = _drafted_runner(drafted, tmp_path)
    # An action that asks Lean: the draft of a planned lemma (its statement is type-checked).
    # The next ready one, a definition's gate, asks Lean nothing: a dead actor loses it not.
    action = action.model_copy(update={"kind": "draft", "result": "lem:mean-max"})
    dead = ray_session.remote(LeanWorker).remote(str(root))
    _kill(ray_session, dead)
    runner._idle.append(dead)  # the next task leases it
    done = runner.submit(_no_local_work, results, action).result(timeout=120)
    assert done.lost
    assert done.events[-1].as_event() == {
        "type": "lean_restart",
        "reason": "worker died during an action; replaced",
        "rss_mb": 0,
    }
    assert runner._idle == [] and runner.started == 0
    runner.close()


def test_a_task_that_raises_raises_on_the_driver_as_a_thread_would(ray_session, drafted, tmp_path):
    root, results, action, _, _, runner = _drafted_runner(drafted, tmp_path)
    unknown = action.model_copy(update={"result": "no-such-result"})
    future = runner.submit(_no_local_work, results, unknown)
    with pytest.raises(KeyError, match="no-such-result"):
        future.result(timeout=120)
    assert runner._idle == [] and runner.started == 1  # its actor was killed, not kept
    runner.close()


def test_a_task_whose_worker_process_dies_loses_its_action(ray_session, drafted, tmp_path):
    root, results, action, _, _, runner = _drafted_runner(drafted, tmp_path)

    def dies(*args):
        os._exit(1)

    # A stand-in for `remote_action` (only its body differs: it kills its worker process);
    # Ray, which notices the death and reports it to the runner, is real.
    runner._task = ray_session.remote(num_cpus=0, max_retries=0)(dies)
    done = runner.submit(_no_local_work, results, action).result(timeout=120)
    assert done.lost
    assert isinstance(done.outcome, Failed) and done.outcome.failure is Failure.LEAN_UNAVAILABLE
    assert done.outcome.action == action
    assert [e.type for e in done.events] == ["lean_restart"]
    assert runner._idle == []
    runner.close()


def test_check_joins_a_running_cluster_at_its_address(ray_session, finished_runs, tmp_path):
    """`--address`: a second driver (the CLI, in its own process) joins this session's
    cluster, runs its actions there (the same records as the serial run) and leaves the
    cluster running."""
    address = ray_session.get_runtime_context().gcs_address
    fixture = example(NAME)
    workdir = tmp_path / "ws"
    argv = [
        *(sys.executable, "-m", "paperlint", "check", str(fixture / "paper.tex")),
        *("--replay", str(fixture / "replay"), "--workdir", str(workdir)),
        *("--jobs", "2", "--executor", "ray", "--address", address),
    ]
    out = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    assert out.returncode == 1, out.stderr  # the example's two issues are recorded
    reference, _ = finished_runs[NAME]
    assert _results(workdir) == _results(reference)
    assert ray_session.get(ray_session.put("still running")) == "still running"


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

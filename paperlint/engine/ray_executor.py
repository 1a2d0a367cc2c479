"""`check --executor ray [--address ADDR]`: the same actions as Ray tasks, Lean workers as Ray
actors that reserve memory, the records on the driver (issue #14).

The driver runs the scheduler of `paperlint.engine.scheduler` unchanged: it plans, charges,
applies and commits, and it alone writes `results.json` and `events.jsonl`. Only the runner
differs: each action is a Ray task that rebuilds the run's context from the workspace (its
config snapshot, inventory and blueprint), runs the step, and returns the outcome with the
events it emitted; the driver appends those, then the action's end, then commits. Each task
leases one `LeanWorker` actor for its length; an actor reserves the memory a warm REPL holds
(`paperlint.lean.pool.WORKER_FOOTPRINT_MB`; a replay's worker, which holds no Lean, reserves
`REPLAY_WORKER_MB`), so a cluster runs as many warm verifiers as its memory allows. An actor
that died, or whose REPL died under an action (a `dead_server` answer), is replaced and its
action planned again, as in the local pool, with the same `lean_restart` event; so is an
action whose task Ray lost (its worker process died). An error raised by the action's own code
is raised on the driver, as a thread's is.

What this needs of the cluster: every node sees the workspace (and the replay or the Lean
project) at the same path, since evidence is written where the action runs. A local cluster
(`ray.init()` here, the default without `--address`) always does. The budget an action checks
before a repair re-ask is the spend when it started plus its own charges: with N actions in
flight a call cap can then be passed by at most the re-asks in flight.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperlint.engine.actions import Action
from paperlint.engine.executors import RunOptions, ray_cluster
from paperlint.engine.scheduler import Done, Work, run_parallel
from paperlint.lean.pool import WORKER_FOOTPRINT_MB
from paperlint.lean.verifier import (
    AxiomReport,
    FailureCode,
    FinalCheck,
    LeanCheck,
    LeanContext,
    Outcome,
    RawAnswer,
    Verifier,
)
from paperlint.records.events import BaseEvent, LeanRestart
from paperlint.records.journal import Journal
from paperlint.records.results import Results
from paperlint.records.spend import Spend

if TYPE_CHECKING:
    from paperlint.engine.actions import Progress
    from paperlint.engine.opening import OpenRun
    from paperlint.engine.summary import Summary

REPLAY_WORKER_MB = 64
"""What a worker answering from a recording reserves: it holds no Lean, only the recording."""
MB = 1024 * 1024


def ray_run(
    run: OpenRun,
    results: Results,
    options: RunOptions,
    until: str | None,
    progress: Progress | None,
) -> Summary:
    ctx, journal = run.ctx, run.journal
    with ray_cluster(options):
        runner = RayRunner(
            ctx.ws.root,
            live_lean=not run.lean.verifier.is_replay,
            spend=lambda: journal.spend,
            jobs=options.jobs,
        )
        try:
            return run_parallel(
                ctx,
                results,
                run.policy,
                journal,
                jobs=options.jobs,
                until=until,
                progress=progress,
                runner=runner,
            )
        finally:
            runner.close()


class RayRunner:
    """Actions as Ray tasks; one `LeanWorker` actor leased by each task in flight."""

    def __init__(
        self, root: Path, *, live_lean: bool, spend: Callable[[], Spend], jobs: int = 1
    ) -> None:
        import ray

        self.root = str(root)
        self._spend = spend
        self._memory = (WORKER_FOOTPRINT_MB if live_lean else REPLAY_WORKER_MB) * MB
        self._worker_class = ray.remote(LeanWorker)
        # An action mostly waits (on a model, on its Lean actor): it reserves no CPU, or a
        # two-core machine would run two at a time whatever --jobs says. A warm REPL's actor
        # does the CPU work and reserves one core and its memory.
        self._task = ray.remote(num_cpus=0, max_retries=0)(remote_action)
        self._cpus = 1 if live_lean else 0
        self._idle: list[Any] = []
        self.started = 0  # actors started; at most one per action in flight is busy
        self._lock = threading.Lock()
        self._waiting = ThreadPoolExecutor(
            max_workers=max(1, jobs), thread_name_prefix="paperlint-ray"
        )

    def _actor(self) -> Any:
        with self._lock:
            if self._idle:
                return self._idle.pop()
            self.started += 1
        return self._worker_class.options(memory=self._memory, num_cpus=self._cpus).remote(
            self.root
        )

    def _give_back(self, actor: Any, lost: bool) -> None:
        import ray

        if lost:
            ray.kill(actor)  # a dead or suspect actor: the next task starts a new one
            return
        with self._lock:
            self._idle.append(actor)

    def submit(self, work: Work, results: Results, action: Action) -> Future[Done]:
        spent = self._spend()
        actor = self._actor()
        ref = self._task.remote(self.root, results, action, (spent.calls, spent.cost_usd), actor)
        # Waited for on a thread of ours, not in a callback of `ref.future()`: Ray runs those
        # on its own thread, where `ray.kill` of a lost actor blocks forever.
        return self._waiting.submit(self._done, ref, actor, action)

    def _done(self, ref: Any, actor: Any, action: Action) -> Done:
        """What a finished task came back with. Its own code raising (a `RayTaskError`, which
        is also an instance of the error raised) is raised on the driver, as a thread's is;
        Ray losing the task (its worker, node or result died) loses the action, planned again."""
        import ray

        try:
            outcome, events, lost = ray.get(ref)
        except ray.exceptions.RayTaskError:
            self._give_back(actor, True)
            raise
        except ray.exceptions.RayError as exc:
            from paperlint.engine.actions import Failure
            from paperlint.engine.steps import Failed

            self._give_back(actor, True)
            failed = Failed(action=action, failure=Failure.LEAN_UNAVAILABLE, detail=str(exc))
            return Done(outcome=failed, lost=True, events=(_replaced(),))
        self._give_back(actor, lost)
        return Done(outcome=outcome, lost=lost, events=(*events, *([_replaced()] if lost else [])))

    def close(self, *, wait: bool = True) -> None:
        import ray

        # as the thread runner: what is in flight ends (after ^C: is abandoned)
        self._waiting.shutdown(wait=wait, cancel_futures=not wait)
        with self._lock:
            idle, self._idle = self._idle, []
        for actor in idle:
            ray.kill(actor)


class LeanWorker:
    """A Ray actor holding one verifier built as the run's is (warm REPL, or a replay), from
    the workspace's run spec: with `--record` it records what it answers, as the run's does."""

    def __init__(self, root: str) -> None:
        from paperlint.engine.opening import lean_edge
        from paperlint.records.workspace import open_workspace
        from paperlint.spec import read_spec

        self.verifier = lean_edge(read_spec(open_workspace(Path(root)).config), None).verifier

    def call(self, method: str, *args: Any, **kwargs: Any) -> Any:
        if method not in _VERIFIER_METHODS:
            raise ValueError(f"not a verifier method: {method}")
        return getattr(self.verifier, method)(*args, **kwargs)


_VERIFIER_METHODS = frozenset(
    {"check", "print_axioms", "final_check", "elaborate_statements", "command", "trusted_check"}
)


class RemoteVerifier(Verifier):
    """The `Verifier` an action in a Ray task sees: every call goes to its leased actor."""

    def __init__(self, actor: Any, is_replay: bool) -> None:
        self.actor = actor
        self.is_replay = is_replay
        self.lost = False

    def _call(self, method: str, *args: Any, **kwargs: Any) -> Any:
        import ray

        try:
            answer = ray.get(self.actor.call.remote(method, *args, **kwargs))
        except ray.exceptions.RayActorError:
            self.lost = True
            return None
        if getattr(answer, "code", None) is FailureCode.DEAD_SERVER:
            # The actor lives but its REPL died under the action: as in the local pool
            # (`lean.pool.Leased`), the action is planned again on a new actor.
            self.lost = True
        return answer

    def check(self, context: LeanContext, candidate: str, *, timeout_s: float) -> LeanCheck:
        answer = self._call("check", context, candidate, timeout_s=timeout_s)
        return answer if isinstance(answer, LeanCheck) else _dead(LeanCheck)

    def print_axioms(
        self, context: LeanContext, names: Sequence[str], *, timeout_s: float
    ) -> AxiomReport:
        answer = self._call("print_axioms", context, list(names), timeout_s=timeout_s)
        if isinstance(answer, AxiomReport):
            return answer
        return AxiomReport(
            outcome=Outcome.UNAVAILABLE, axioms=dict.fromkeys(names), code=FailureCode.DEAD_SERVER
        )

    def final_check(self, file: Path, names: Sequence[str], *, timeout_s: float) -> FinalCheck:
        answer = self._call("final_check", file, list(names), timeout_s=timeout_s)
        if isinstance(answer, FinalCheck):
            return answer
        return FinalCheck(outcome=Outcome.UNAVAILABLE, file_sha256="", code=FailureCode.DEAD_SERVER)

    def elaborate_statements(
        self, context: LeanContext, names: Sequence[str], *, timeout_s: float, declaration: str = ""
    ) -> Any:
        return self._call(
            "elaborate_statements",
            context,
            list(names),
            timeout_s=timeout_s,
            declaration=declaration,
        )

    def trusted_check(self, job: Any, *, timeout_s: float) -> Any:
        from paperlint.lean.trusted import TrustedRun, unavailable

        answer = self._call("trusted_check", job, timeout_s=timeout_s)
        return answer if isinstance(answer, TrustedRun) else unavailable(job, "Lean actor died")

    def command(
        self, context: LeanContext, cmd: str, *, timeout_s: float, all_tactics: bool = False
    ) -> RawAnswer | LeanCheck:
        answer = self._call("command", context, cmd, timeout_s=timeout_s, all_tactics=all_tactics)
        return answer if isinstance(answer, dict | LeanCheck) else _dead(LeanCheck)


def _replaced() -> LeanRestart:
    """The event the local pool logs when it replaces a dead worker (`check.worker_pool`)."""
    return LeanRestart(reason="worker died during an action; replaced", rss_mb=0)


def _dead(kind: type[LeanCheck]) -> LeanCheck:
    return kind(outcome=Outcome.UNAVAILABLE, code=FailureCode.DEAD_SERVER, hint="Lean actor died")


_CACHE: dict[tuple[object, ...], Any] = {}
"""A worker process's records of a run (its spec, inventory and blueprint): read at its first
action, reused by the next ones."""


def _run_key(root: str) -> tuple[object, ...]:
    """The run a task belongs to: its workspace and the files its context is built from. A
    worker serves every run its driver makes (a test session, a second run on the same
    workspace), so a rewritten snapshot, inventory or blueprint builds the context afresh."""
    from paperlint.records.workspace import open_workspace

    ws = open_workspace(Path(root))
    stamps = [
        (p.stat().st_mtime_ns, p.stat().st_size) for p in (ws.config, ws.inventory, ws.blueprint)
    ]
    return (root, *stamps)


def remote_action(
    root: str, results: Results, action: Action, spent: tuple[int, float], actor: Any
) -> tuple[Any, list[BaseEvent], bool]:
    """A Ray task: run one action against the workspace at `root`; (outcome, events, lost).

    The run is opened here as the driver opened it, from the workspace's run spec (so a
    `--record` run records here too), with this task's journal (it keeps the events for the
    driver and counts the spend from where the run was) and the leased actor as its Lean."""
    from paperlint.blueprint.model import Blueprint
    from paperlint.engine.execute import execute
    from paperlint.engine.opening import open_run
    from paperlint.preflight.model import Inventory
    from paperlint.records import read_record
    from paperlint.records.workspace import open_workspace
    from paperlint.spec import read_spec, replay_parts

    key = _run_key(root)
    cached = _CACHE.get(key)
    if cached is None:
        ws = open_workspace(Path(root))
        spec = read_spec(ws.config)
        inventory = read_record(ws.inventory, Inventory)
        blueprint = read_record(ws.blueprint, Blueprint)
        cached = _CACHE[key] = (ws, spec, inventory, blueprint)
    ws, spec, inventory, blueprint = cached
    journal = Journal(None, spent=Spend(calls=spent[0], cost_usd=spent[1]))
    verifier = RemoteVerifier(actor, "lean" in replay_parts(spec))
    run = open_run(
        ws, spec, inventory=inventory, blueprint=blueprint, journal=journal, verifier=verifier
    )
    outcome = execute(run.ctx, results, action)
    return outcome, journal.kept, verifier.lost


__all__ = ["LeanWorker", "RayRunner", "ray_run", "remote_action"]

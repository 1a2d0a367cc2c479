"""`check --executor ray [--address ADDR]`: the same actions on long-lived Ray actors, one per
slot, the records on the driver (issues #14, #30).

The driver runs the scheduler of `paperlint.engine.scheduler` unchanged: it plans, charges,
applies and commits, and it alone writes `results.json` and `events.jsonl`. Only the runner
differs: each action goes to an idle `ActionActor`, one per `--jobs` slot, all started with the
run. An actor is one process that imports the engine once and opens each run once, through the
same `open_run` as the driver, from the workspace's run spec snapshot, inventory and blueprint:
it holds the frozen context and its own Lean edge (a warm REPL, or a replay; with `--record` it
records as the run's does), so an action's Lean calls are calls in that process, not round
trips. A call carries only the records the action reads (`execute.needed_records`) and the spend
where the run is; it returns the outcome and the events the action emitted, which the driver
appends, then the action's end, then commits.

A call runs a result's chain of steps (`ActionActor.run`): after each action the actor applies
its outcome to its own copy of the result and, when the result's next action is one the driver
would plan from the same records (`scheduler.chained`), starts it at once, streaming each
outcome back (a Ray generator) with the action it went on to. The driver commits each outcome
in turn and takes the next action as started (`Parallel._continue`), after checking that it
plans the same; one it would not (a dependency found work meanwhile) is run to its end and its
outcome applied to nothing. So a step costs no round trip through the driver, and the records
are those of one action per call. Chains run only with no budget cap and no `--until` (where the
driver's planning turns on the spend or the stage), and end when the driver halts the run (an
edge, ^C: `RayRunner.halt`).

The same events as threads: a REPL that died under an action is replaced by the actor's own
pool (`check.worker_pool`), whose `lean_restart` comes back among the action's events, and the
action is planned again; an actor whose process died (or a call Ray lost) is replaced, its
action planned again with the same `lean_restart` event. An error raised by the action's own
code is raised on the driver, as a thread's is; the actor, alive, serves on.

While the cluster (a local one starts, an address is joined, on a thread of its own) and its
actors come up, the driver runs the actions itself, as the thread runner does, on its own
verifier (`LOCAL_WHILE_WARMING`): a cold start costs the run no waiting, and a short run may
end before any actor is ready (the runner logs where its actions ran).

Actors last as long as this process's outermost `ray_cluster` block, so a `batch` starts them
once for all its papers (each paper's run is opened once in each; a warm REPL whose Lean
settings did not change is kept). On a cluster joined at an address they outlive the driver:
named, detached actors keyed by the code they run, leased by one driver at a time, exiting
after idle minutes (`KeptSlots`, docs/ray.md). An actor is ready for actions once it has
opened the run (`ActionActor.open`, sent as it is taken); the driver runs actions until then.
An actor reserves the memory its verifier holds
(`paperlint.lean.jobs.WORKER_FOOTPRINT_MB` for a warm REPL, `REPLAY_WORKER_MB` for a replay) and
no CPU: it mostly waits on a model, and a core reserved per slot would leave `--jobs` above the
core count waiting for a place that never frees.

What this needs of the cluster: every node sees the workspace (and the replay or the Lean
project) at the same path, since evidence is written where the action runs. A local cluster
(started here, the default without `--address`) always does. The budget an action checks
before a repair re-ask is the spend when it started plus its own charges: with N actions in
flight a call cap can then be passed by at most the re-asks in flight.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperlint.engine.actions import Action
from paperlint.engine.executors import RunOptions, on_leaving_cluster, ray_cluster
from paperlint.engine.scheduler import Done, Work, chained, run_parallel, uncapped
from paperlint.errors import InputError
from paperlint.lean.jobs import WORKER_FOOTPRINT_MB
from paperlint.records.events import BaseEvent, LeanRestart
from paperlint.records.journal import Journal
from paperlint.records.results import Results
from paperlint.records.spend import Spend

if TYPE_CHECKING:
    from paperlint.engine.actions import Progress
    from paperlint.engine.context import EngineContext
    from paperlint.engine.opening import LeanEdge, OpenRun
    from paperlint.engine.plan import Policy
    from paperlint.engine.steps import StepOutcome
    from paperlint.engine.summary import Summary
    from paperlint.lean.pool import Pool
    from paperlint.spec import RunSpec

log = logging.getLogger(__name__)

REPLAY_WORKER_MB = 64
"""What an actor answering Lean from a recording reserves: it holds no Lean, only the recording."""
MB = 1024 * 1024


def ray_run(
    run: OpenRun,
    results: Results,
    options: RunOptions,
    until: str | None,
    progress: Progress | None,
) -> Summary:
    ctx, journal = run.ctx, run.journal
    with ray_cluster(options, background=LOCAL_WHILE_WARMING) as cluster:
        runner = RayRunner(
            ctx,
            live_lean=not run.lean.verifier.is_replay,
            spend=lambda: journal.spend,
            jobs=options.jobs,
            cluster=cluster,
            kept=options.address is not None,
            chain=until is None and uncapped(run.policy),
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


LOCAL_WHILE_WARMING = True
"""Run an action on the driver (as the thread runner does, on the driver's own verifier) when no
actor is ready for it yet: a local cluster takes seconds to start (it starts on a thread of its
own meanwhile), its actors seconds more, and the run need not wait for them. Off in tests that
must see every action reach an actor."""


class RayRunner:
    """Actions on `jobs` action actors, each serving one action at a time; while none is ready
    for an action (the cluster or the actors still starting), on a thread of the driver
    (`LOCAL_WHILE_WARMING`)."""

    def __init__(
        self,
        ctx: EngineContext,
        *,
        live_lean: bool,
        spend: Callable[[], Spend],
        jobs: int = 1,
        cluster: Future[None] | None = None,
        kept: bool = False,
        chain: bool = False,
    ) -> None:
        self.ctx = ctx
        self._kept = kept
        """Actors kept on the cluster between runs (`KeptSlots`): a cluster joined at an address."""
        self._chain = chain
        """An actor goes on to its result's next action (`ActionActor.run`)."""
        self.root = str(ctx.ws.root)
        self.run_id = uuid.uuid4().hex
        """Names this opening of the run: an actor opens the run afresh when it changes."""
        self._spend = spend
        self._memory = (WORKER_FOOTPRINT_MB if live_lean else REPLAY_WORKER_MB) * MB
        self._jobs = max(1, jobs)
        self._cluster = cluster
        """Done once the cluster takes work (None: it does now)."""
        self._slots: Slots | None = None
        self._taking: Future[list[Any]] | None = None
        """Kept actors being leased (`KeptSlots.take`, on a thread of `_waiting`)."""
        self._lock = threading.Lock()
        self._idle: list[Any] = []
        self.actors: list[Any] = []
        """Every actor this runner served with, in order (replacements appended)."""
        self._coming: dict[Any, Any] = {}
        """Actors still starting: a call each, answered once its constructor has run."""
        self._ready: set[int] = set()
        self._without_cluster = False
        """The cluster failed to start: the driver runs every action."""
        self._waiting = ThreadPoolExecutor(
            max_workers=max(1, jobs), thread_name_prefix="paperlint-ray"
        )
        self._local = ThreadPoolExecutor(
            max_workers=max(1, jobs), thread_name_prefix="paperlint-action"
        )
        self.ran = {"actor": 0, "driver": 0, "chained": 0}
        """Actions run on actors (those that went on from the one before included) and on
        the driver; how many of the first went on from the one before."""
        self._halted = False
        self.halts: list[Any] = []
        """The halts sent (`halt`), not waited for: a test may."""
        self._closed = False
        if cluster is None or cluster.done():
            self._start_actors()

    def _start_actors(self) -> None:
        """Take this run's actors (starting those missing), once the cluster is there; a
        cluster that failed to start leaves every action to the driver, and says so."""
        cluster = self._cluster
        failed = cluster.exception() if cluster is not None else None
        if failed is not None:
            if self._kept and isinstance(failed, InputError):
                # the cluster asked for refused to be joined (its token): the user's to fix,
                # not a run on this machine's threads they did not ask for
                raise failed
            if not self._without_cluster:
                log.warning("Ray did not start (%s): every action runs here", failed)
            self._without_cluster = True
            return
        self._slots = slots(ActionActor, self._memory, kept=self._kept)
        if self._kept and LOCAL_WHILE_WARMING:
            # a lease waits for its actor's constructor (seconds, when it starts one): the
            # driver runs the first actions meanwhile
            self._taking = self._waiting.submit(self._slots.take, self._jobs)
        else:
            self._took(self._slots.take(self._jobs))

    def _took(self, actors: list[Any]) -> None:
        self._idle = actors
        self.actors = list(actors)
        # an actor is ready once it has opened this run: the driver runs actions meanwhile
        self._coming = {a.open.remote(self.root, self.run_id): a for a in actors}

    def submit(self, work: Work, results: Results, action: Action) -> Future[Done]:
        with self._lock:
            actor = self._ready_actor()
            self.ran["actor" if actor is not None else "driver"] += 1
        if actor is None:
            return self._local.submit(work)
        spent = self._spend()
        first: Future[Done] = Future()
        # Sent and waited for on a thread of ours (the loop's thread goes on planning and
        # committing meanwhile), not in a callback of the stream: Ray runs those on its own
        # thread, where `ray.kill` of a lost actor blocks forever.
        self._waiting.submit(self._send, actor, results, action, spent, first)
        return first

    def _send(
        self, actor: Any, results: Results, action: Action, spent: Spend, first: Future[Done]
    ) -> None:
        from paperlint.engine.execute import needed_records

        try:
            stream = actor.run.remote(
                self.root,
                self.run_id,
                needed_records(self.ctx, results, action),
                action,
                (spent.calls, spent.cost_usd),
                self._chain,
            )
        except BaseException as exc:  # noqa: BLE001 - the loop waits on this future: tell it
            self._give_back(actor)
            first.set_exception(exc)
            return
        self._stream(stream, actor, action, first)

    def _ready_actor(self) -> Any:
        """An idle actor that has started (under the lock); None: none yet. Without the local
        warm-up, any idle actor (the call waits for it to start)."""
        if self._slots is None:
            if self._without_cluster:
                return None
            if self._cluster is not None and not self._cluster.done():
                if LOCAL_WHILE_WARMING:
                    return None
                self._cluster.exception()  # waits for it
            self._start_actors()
            if self._slots is None:
                return None
        if self._taking is not None:
            if not self._taking.done():
                return None
            self._took(self._taking.result())
            self._taking = None
        import ray

        if self._coming:
            done, _ = ray.wait(list(self._coming), num_returns=len(self._coming), timeout=0)
            for ref in done:
                self._ready.add(id(self._coming.pop(ref)))
        for i in range(len(self._idle) - 1, -1, -1):
            if id(self._idle[i]) in self._ready or not LOCAL_WHILE_WARMING:
                return self._idle.pop(i)
        return None

    def _stream(self, stream: Any, actor: Any, action: Action, future: Future[Done]) -> None:
        """Hand each action of the call its outcome as it comes: the action it went on to (if
        any) in a future of its own, given with the outcome before it (`Done.then`). The
        actor goes back to the idle ones before its last outcome is handed over, so the
        driver's next action finds it. The action's own code raising (a `RayTaskError`, which
        is also an instance of the error raised) is raised on the driver, as a thread's is;
        the actor dying (or Ray losing the call) loses the action, planned again on a new
        actor."""
        import ray

        try:
            while True:
                try:
                    outcome, events, lost, then = ray.get(next(stream))
                except ray.exceptions.RayTaskError as exc:
                    self._give_back(actor)
                    future.set_exception(exc)
                    return
                except (ray.exceptions.RayError, StopIteration) as exc:
                    future.set_result(self._lost(actor, action, exc))
                    return
                if then is None:
                    self._give_back(actor)
                    future.set_result(Done(outcome=outcome, lost=lost, events=tuple(events)))
                    return
                following: Future[Done] = Future()
                with self._lock:
                    self.ran["actor"] += 1
                    self.ran["chained"] += 1
                future.set_result(
                    Done(outcome=outcome, lost=lost, events=tuple(events), then=(then, following))
                )
                action, future = then, following
        except BaseException as exc:  # noqa: BLE001 - the driver waits on this future: tell it
            if not future.done():
                future.set_exception(exc)

    def _lost(self, actor: Any, action: Action, exc: BaseException) -> Done:
        """The actor died under `action` (or Ray lost the call): a new actor in its place, and
        the action lost, with the event the local pool logs for a dead worker."""
        from paperlint.engine.actions import Failure
        from paperlint.engine.steps import Failed

        assert self._slots is not None  # it sent the action
        fresh = self._slots.replace(actor)
        with self._lock:
            self.actors.append(fresh)
            self._coming[fresh.open.remote(self.root, self.run_id)] = fresh
        self._give_back(fresh)
        failed = Failed(action=action, failure=Failure.LEAN_UNAVAILABLE, detail=str(exc))
        return Done(outcome=failed, lost=True, events=(_replaced(),))

    def halt(self) -> None:
        """No actor goes on to a further action of this run (an edge stopped it, or ^C): the
        action each is running ends as it would."""
        with self._lock:
            if self._halted or not self._chain:
                return
            self._halted = True
            actors = list(self.actors)
        for actor in actors:
            try:
                self.halts.append(actor.halt.options(concurrency_group=LEASES).remote(self.run_id))
            except Exception as exc:  # noqa: BLE001 - the cluster is gone: nothing runs on
                log.info("halting an actor failed: %s", exc)

    def _give_back(self, actor: Any) -> None:
        with self._lock:
            self._idle.append(actor)

    def close(self, *, wait: bool = True) -> None:
        if wait and self._kept and self._slots is None and not self._without_cluster:
            # A run on a cluster joined at an address that ended before its actors were up
            # (the driver ran every action) still takes them, so the next run finds them kept.
            try:
                self._start_actors()  # waits for the join; the lease is waited for below
            except Exception as exc:  # noqa: BLE001 - the run is over: say it, end as planned
                log.info("the kept actors were not started: %s", exc)
        # as the thread runner: what is in flight ends (after ^C: is abandoned)
        self._waiting.shutdown(wait=wait, cancel_futures=not wait)
        self._local.shutdown(wait=wait, cancel_futures=not wait)
        with self._lock:
            idle, self._idle = self._idle, []
            taking, self._taking = self._taking, None
        if taking is not None and taking.done() and taking.exception() is None:
            idle += taking.result()  # taken while the driver ran every action
        if self._closed:
            return
        self._closed = True
        if log.isEnabledFor(logging.INFO):
            log.info("ray actions: %s; actors: %s", self.ran, worker_costs(idle))
        if self._slots is not None:  # an abandoned action's actor is left to the cluster's end
            self._slots.put_back(idle)


def worker_costs(actors: list[Any]) -> list[dict[str, Any]]:
    """What each actor reports of its costs (`ActionActor.costs`), in order."""
    if not actors:
        return []
    import ray

    try:
        return list(ray.get([a.costs.remote() for a in actors], timeout=30))
    except ray.exceptions.RayError as exc:
        return [{"error": str(exc)}]


def _remote_class(actor_class: type) -> Any:
    """`actor_class` as a Ray actor class: its `lease` calls in a thread of their own, so a
    driver asking for an actor another driver is using is answered at once, not after the
    action under way."""
    import ray

    return ray.remote(concurrency_groups={LEASES: 1})(actor_class)


LEASES = "leases"
"""The concurrency group of `ActionActor.lease`, `renew` and `release`."""


class Slots:
    """The free action actors of one class and memory reservation in this process's cluster
    session: a runner takes what it needs (starting what is missing) and puts them back at its
    end; when the outermost `ray_cluster` block ends they are killed."""

    def __init__(self, actor_class: type, memory: int) -> None:
        self._class = _remote_class(actor_class)
        self._reserves: dict[str, Any] = {"memory": memory, "num_cpus": 0}
        self._remote = self._class.options(**self._reserves)
        self._free: list[Any] = []
        self._lock = threading.Lock()

    def take(self, count: int) -> list[Any]:
        with self._lock:
            taken, self._free = self._free[:count], self._free[count:]
        return taken + [self._remote.remote(time.time()) for _ in range(count - len(taken))]

    def replace(self, dead: Any) -> Any:
        import ray

        ray.kill(dead)
        return self.take(1)[0]

    def put_back(self, actors: list[Any]) -> None:
        with self._lock:
            self._free.extend(actors)

    def kill_all(self) -> None:
        import ray

        with self._lock:
            free, self._free = self._free, []
        for actor in free:
            ray.kill(actor)


NAMESPACE = "paperlint"
"""The Ray namespace of the action actors kept on a running cluster (`KeptSlots`)."""
LEASED, HELD, OTHER_CODE = "leased", "held", "other code"
"""What `ActionActor.lease` answers."""
LEASE_S = 60.0
"""A kept actor's lease ends this long after its driver last renewed it."""
KEPT_IDLE_S = 600.0
"""A kept actor no driver holds exits after this long without an action."""
MAX_KEPT = 64
"""Names tried per take beyond the slots asked for (the rest held by other drivers)."""


class KeptSlots(Slots):
    """Action actors kept on a cluster joined at an address, between runs and drivers: named,
    detached actors in the `NAMESPACE` namespace, one name per (code, memory, index). The code
    key (`code_key`: paperlint's files, Python's and Ray's versions) is in the name and checked
    by the actor against its own, so an actor is never reused by a driver running other code.
    A driver takes an actor by its lease (`ActionActor.lease`), renewed every quarter of
    `lease_s` while the driver holds it (a thread of its own) and given back at the run's end;
    an actor leased elsewhere refuses, and the next name is tried (made when missing). A driver
    that died holds its actors no longer after `lease_s`. An actor no one holds exits after
    `KEPT_IDLE_S`; `ray stop` ends them all."""

    def __init__(
        self,
        actor_class: type,
        memory: int,
        *,
        lease_s: float = LEASE_S,
        idle_s: float = KEPT_IDLE_S,
    ) -> None:
        super().__init__(actor_class, memory)
        self._idle_s = idle_s
        self._key = code_key()
        self._prefix = f"paperlint-action-{self._key[:16]}-{memory // MB}mb-"
        self._holder = uuid.uuid4().hex
        """Names this process's leases."""
        self._lease_s = lease_s
        self._held: list[Any] = []
        self._renewing: threading.Thread | None = None
        self._ended = threading.Event()
        self._plain: list[Any] = []
        """Actors of this session only (every name was held): killed when it ends."""

    def take(self, count: int) -> list[Any]:
        import ray

        taken: list[Any] = []
        first = 0
        other_code = False
        while len(taken) < count and first < count + MAX_KEPT and not other_code:
            names = [f"{self._prefix}{i}" for i in range(first, first + count - len(taken))]
            first += len(names)
            actors = [self._named(n).remote(time.time(), self._idle_s) for n in names]
            asked = [
                a.lease.options(concurrency_group=LEASES).remote(
                    self._holder, self._key, self._lease_s
                )
                for a in actors
            ]
            for actor, ref in zip(actors, asked, strict=True):
                try:
                    answer = ray.get(ref, timeout=60)
                except ray.exceptions.RayError as exc:  # dead, or dying: the next name
                    log.info("a kept actor did not answer: %s", exc)
                    continue
                if answer == LEASED:
                    taken.append(actor)
                elif answer == OTHER_CODE:
                    # the cluster's workers import other code than this driver's: its name
                    # says otherwise, so it goes, and every further one would be the same
                    log.warning("Ray's workers run other paperlint code: actors of this run only")
                    ray.kill(actor)
                    other_code = True
        with self._lock:
            self._held += taken
            if self._renewing is None:
                self._renewing = threading.Thread(
                    target=self._renew, name="paperlint-ray-leases", daemon=True
                )
                self._renewing.start()
        if len(taken) < count:  # every name held: actors of this session only
            plain = Slots.take(self, count - len(taken))
            self._plain += plain
            taken += plain
        return taken

    def _named(self, name: str) -> Any:
        """The actor of this name, started if missing (Ray settles two drivers racing)."""
        return self._class.options(
            **self._reserves,
            name=name,
            namespace=NAMESPACE,
            lifetime="detached",
            get_if_exists=True,
        )

    def put_back(self, actors: list[Any]) -> None:
        import ray

        super().put_back([a for a in actors if a in self._plain])
        actors = [a for a in actors if a not in self._plain]
        with self._lock:
            self._held = [a for a in self._held if a not in actors]
        released = [
            a.release.options(concurrency_group=LEASES).remote(self._holder) for a in actors
        ]
        try:
            ray.get(released, timeout=60)
        except ray.exceptions.RayError as exc:
            log.info("a kept actor did not take its release: %s", exc)

    def _renew(self) -> None:
        """Every quarter of the lease, renew the lease of every actor held (not waited for: a
        busy cluster delays a renewal, three more come before the lease ends), until the
        session ends (`kill_all`)."""
        while not self._ended.wait(self._lease_s / 4):
            with self._lock:
                held = list(self._held)
            for actor in held:
                try:
                    actor.renew.options(concurrency_group=LEASES).remote(self._holder)
                except Exception as exc:  # noqa: BLE001 - the cluster left under it: the end
                    log.info("renewing a lease failed: %s", exc)
                    return

    def kill_all(self) -> None:
        """Kept actors are left running; those of this session only are killed."""
        self._ended.set()
        super().kill_all()
        self._plain = []


_SLOTS: dict[tuple[type, int, bool], Slots] = {}
_SLOTS_LOCK = threading.Lock()


def slots(actor_class: type, memory: int, *, kept: bool = False) -> Slots:
    """This session's actors of `actor_class` reserving `memory` (made at its first use);
    `kept`: kept on the cluster between runs (`KeptSlots`)."""
    key = (actor_class, memory, kept)
    with _SLOTS_LOCK:
        found = _SLOTS.get(key)
        if found is None:
            found = _SLOTS[key] = (KeptSlots if kept else Slots)(actor_class, memory)
            on_leaving_cluster(functools.partial(_drop, key))
    return found


def _drop(key: tuple[type, int, bool]) -> None:
    with _SLOTS_LOCK:
        dropped = _SLOTS.pop(key, None)
    if dropped is not None:
        dropped.kill_all()


@functools.cache
def code_key() -> str:
    """What an actor kept between runs must share with the driver that takes it: the bytes of
    every file of paperlint's packages (its code, templates and data), Python's and Ray's
    versions. Hashing them costs milliseconds (about 300 files, 3 MB)."""
    import hashlib
    import importlib.util
    import sys

    import ray

    digest = hashlib.sha256(f"{sys.version}\0{ray.__version__}\0".encode())
    for package in ("paperlint", "paperlint.preflight", "paperlint.blueprint", "paperlint.reports"):
        spec = importlib.util.find_spec(package)
        assert spec is not None and spec.submodule_search_locations is not None
        for folder in spec.submodule_search_locations:
            base = Path(folder)
            for path in sorted(base.rglob("*")):
                if path.is_file() and "__pycache__" not in path.parts:
                    digest.update(f"{package}/{path.relative_to(base).as_posix()}\0".encode())
                    digest.update(path.read_bytes())
    return digest.hexdigest()


@dataclass
class _Opened:
    """The run an actor serves: its opening (`open_run`) and its Lean workers."""

    root: str
    run_id: str
    ctx: EngineContext
    policy: Policy


@dataclass
class _Lean:
    key: object
    """What the edge was built from, when a later run may keep it (a warm REPL); else None."""
    edge: LeanEdge
    pool: Pool

    def close(self) -> None:
        self.pool.close()
        if self.edge.new_worker is None:  # a shared verifier: the pool does not own it
            self.edge.verifier.close()


class ActionActor:
    """A Ray actor serving one slot: runs actions of the run it has open, in this process."""

    def __init__(self, created: float = 0.0, idle_s: float | None = None) -> None:
        """`created`: when the driver asked for this actor (`time.time()`), to report how long
        its process took to come up. `idle_s`: an actor kept between runs (`KeptSlots`), which
        exits after that long held by no live driver and without an action."""
        waited = time.time() - created if created else None
        started = time.perf_counter()
        # What every action needs, imported once, while the driver plans the first ones.
        import paperlint.engine.execute
        import paperlint.engine.opening  # noqa: F401

        self.journal = Journal(None)
        """One journal for every action: `begin` starts it afresh at each."""
        self._opened: _Opened | None = None
        self._lean: _Lean | None = None
        self._costs: dict[str, Any] = {
            "start_s": round(waited, 3) if waited is not None else None,
            "import_s": round(time.perf_counter() - started, 3),
            "open_s": [],
            "first_action_s": None,
            "actions": 0,
            "leases": 0,
        }
        self._guard = threading.Lock()
        self._halted: str | None = None
        """The run whose driver asked for no further action (`halt`)."""
        self._holder: str | None = None
        """The driver holding this actor (`KeptSlots`), or None."""
        self._renewed = self._lease_s = 0.0
        self._last = time.monotonic()
        self._exiting = False
        self._key: str | None = None
        """The code this actor runs, if kept between runs (`code_key`)."""
        if idle_s is not None:
            self._key = code_key()
            threading.Thread(
                target=self._exit_when_idle, args=(idle_s,), name="paperlint-idle", daemon=True
            ).start()

    def lease(self, holder: str, key: str, lease_s: float) -> str:
        """Hold this actor for `holder` (a driver), until it gives it back or `lease_s` after
        it last renewed the lease (`renew`), if no one holds it and it runs the code `key`
        names. Runs in the `LEASES` group: at once, while another driver's action is under
        way. `LEASED`, or why not: `HELD` (or exiting), `OTHER_CODE`."""
        with self._guard:
            if key != self._key:
                return OTHER_CODE
            if self._exiting or self._is_held():
                return HELD
            self._holder, self._lease_s = holder, lease_s
            self._renewed = self._last = time.monotonic()
            self._costs["leases"] += 1
            self._costs["first_action_s"] = None
            return LEASED

    def renew(self, holder: str) -> None:
        with self._guard:
            if self._holder == holder:
                self._renewed = time.monotonic()

    def release(self, holder: str) -> None:
        """Given back by the driver holding it: its run's Lean edge is closed unless a later run
        may keep it (a warm REPL), and the run forgotten."""
        with self._guard:
            if self._holder != holder:
                return
            self._holder = None
            self._last = time.monotonic()
            self._opened = None
            if self._lean is not None and self._lean.key is None:
                self._lean.close()
                self._lean = None

    def _is_held(self) -> bool:
        """Whether a driver holds this actor (under the guard): one that renewed its lease in
        time."""
        return self._holder is not None and time.monotonic() - self._renewed < self._lease_s

    def _exit_when_idle(self, idle_s: float) -> None:
        import ray

        while True:
            time.sleep(min(idle_s, 30.0))
            with self._guard:
                if self._is_held() or time.monotonic() - self._last < idle_s:
                    continue
                self._exiting = True
                if self._lean is not None:
                    self._lean.close()
            ray.kill(ray.get_runtime_context().current_actor, no_restart=True)
            return

    def run(
        self,
        root: str,
        run_id: str,
        results: Results,
        action: Action,
        spent: tuple[int, float],
        chain: bool = False,
    ) -> Iterator[tuple[StepOutcome, list[BaseEvent], bool, Action | None]]:
        """`action` on `results` (the records it reads), then, with `chain`, each next action
        of its result the driver would plan (`scheduler.chained`) until there is none or the
        driver halts the run (`halt`); for each, (outcome, its events, lost, the action this
        call goes on to or None). A Ray generator: each is streamed back as it is done."""
        while True:
            outcome, events, lost = self.step(root, run_id, results, action, spent)
            following = None
            opened = self._opened
            if chain and not lost and self._halted != run_id and opened is not None:
                following = chained(opened.ctx, opened.policy, results, outcome)
            yield outcome, events, lost, following[0] if following else None
            if following is None:
                return
            action, results = following
            now = self.journal.spend
            spent = (now.calls, now.cost_usd)

    def step(
        self, root: str, run_id: str, results: Results, action: Action, spent: tuple[int, float]
    ) -> tuple[StepOutcome, list[BaseEvent], bool]:
        """One action on `results` (the records it reads); (outcome, its events, lost)."""
        from paperlint.engine.execute import execute

        started = time.perf_counter()
        ctx = self._open(root, run_id)
        pool = self._lean.pool if self._lean is not None else None
        assert pool is not None
        self.journal.begin(Spend(calls=spent[0], cost_usd=spent[1]))
        with pool.lease() as lease:
            outcome = execute(replace(ctx, verifier=lease), results, action)
        self._costs["actions"] += 1
        if self._costs["first_action_s"] is None:
            self._costs["first_action_s"] = round(time.perf_counter() - started, 3)
        self._last = time.monotonic()
        return outcome, list(self.journal.kept), lease.lost

    def halt(self, run_id: str) -> None:
        """Go on to no further action of run `run_id` (`RayRunner.halt`). In the `LEASES`
        group: taken while an action runs."""
        self._halted = run_id

    def open(self, root: str, run_id: str) -> None:
        """Open the run at `root` ahead of its first action (`run` opens it if not)."""
        self._open(root, run_id)

    def costs(self) -> dict[str, Any]:
        """Seconds from the driver's request to this process running its constructor, spent
        importing, opening each run and on the first action since its lease (its opening
        included if the run was not opened ahead), and the actions served."""
        return dict(self._costs)

    def _open(self, root: str, run_id: str) -> EngineContext:
        opened = self._opened
        if opened is not None and (opened.root, opened.run_id) == (root, run_id):
            return opened.ctx
        from paperlint.blueprint.model import Blueprint
        from paperlint.engine.opening import open_run
        from paperlint.preflight.model import Inventory
        from paperlint.records import read_record
        from paperlint.records.workspace import open_workspace
        from paperlint.spec import read_spec

        started = time.perf_counter()
        ws = open_workspace(Path(root))
        spec = read_spec(ws.config)
        lean = self._lean_for(spec)
        run = open_run(
            ws,
            spec,
            inventory=read_record(ws.inventory, Inventory),
            blueprint=read_record(ws.blueprint, Blueprint),
            journal=self.journal,
            verifier=lean.edge.verifier,
        )
        self._opened = _Opened(root, run_id, run.ctx, run.policy)
        self._costs["open_s"].append(round(time.perf_counter() - started, 3))
        return run.ctx

    def _lean_for(self, spec: RunSpec) -> _Lean:
        """The Lean edge for `spec`: the one this actor holds when it was built from the same
        settings and is a warm REPL (a replay or a recording belongs to its run), else anew."""
        from paperlint.engine.check import worker_pool
        from paperlint.engine.opening import lean_edge, lean_kept_by

        key = lean_kept_by(spec)
        held = self._lean
        if held is not None and key is not None and held.key == key:
            return held
        if held is not None:
            held.close()
        edge = lean_edge(spec, self.journal.emit)
        self._lean = _Lean(key, edge, worker_pool(edge, self.journal.emit, 1))
        return self._lean


def _replaced() -> LeanRestart:
    """The event the local pool logs when it replaces a dead worker (`check.worker_pool`)."""
    return LeanRestart(reason="worker died during an action; replaced", rss_mb=0)


__all__ = ["ActionActor", "RayRunner", "Slots", "ray_run", "slots", "worker_costs"]

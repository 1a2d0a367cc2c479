"""Run up to N actions at once (`check --jobs N`): the policy stays in `plan.ready`, this is
the shell around it.

The main thread alone plans, charges, applies and commits. For each free slot it asks
`ready` (dependency order, one action per result, budgets) for the actions that may start,
charges the first (`action_started`, under the journal's lock, so the budget check and the
charge are one step) and hands it to the runner: a local thread (the default) or a Ray task.
Each outcome is applied to the records and committed through the one atomic writer, in the
order the actions finish; the `action_finished` line is appended before the commit, as in the
serial loop, so a crash anywhere leaves at most the actions in flight to be redone.

A runner may go on to an action's next action of the same result without asking (`chained`:
Ray actors run a result's chain of steps in one call): the outcome comes back with the action
it went on to (`Done.then`), which the loop takes as started once it has committed the outcome
and checked that it plans that very action itself (`Parallel._continue`).

Why any N gives the same records: an action reads its own record and those of its
dependencies, and `ready` starts nothing on a result while a dependency still has work, so
every action sees what it would have seen in the serial queue. Budgets are checked before
every request and calls are charged before they are made; with N actions in flight a cap on
cost can be passed by at most the N requests already under way (their cost is known only
when they answer), a cap on calls not at all.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Protocol

from paperlint.engine.actions import Action, Failure
from paperlint.engine.apply import apply
from paperlint.engine.context import EngineContext
from paperlint.engine.execute import execute, needed_ids, needed_records
from paperlint.engine.plan import Policy, Stop, is_open, planned_for, ready
from paperlint.engine.run import (
    Progress,
    before,
    finish_run,
    finished_event,
    interrupt_run,
    started_event,
    stop_run,
)
from paperlint.engine.steps import Failed, StepOutcome
from paperlint.engine.summary import Summary, summarise
from paperlint.exitcodes import ExitCode
from paperlint.lean.pool import Pool, SharedVerifier
from paperlint.records.events import BaseEvent
from paperlint.records.journal import Journal
from paperlint.records.results import Results
from paperlint.records.spend import Spend
from paperlint.records.workspace import write_results

log = logging.getLogger(__name__)

REPLANS = 2
"""How often one action is planned again after its Lean worker died, before its outcome (Lean
unavailable) is applied as it came."""


@dataclass(frozen=True)
class Done:
    """What one action came back with; `lost`: its worker died, so it is planned again."""

    outcome: StepOutcome
    lost: bool = False
    events: tuple[BaseEvent, ...] = ()
    """Events the action emitted where the journal could not see them (a Ray task): the
    driver appends them, in order, before the action's end."""
    then: tuple[Action, Future[Done]] | None = None
    """The action the runner went on to after this one (`chained`), and its future."""


Work = Callable[[], Done]


class Runner(Protocol):
    """Where actions run: local threads (`ThreadRunner`) or Ray tasks (`ray_executor`)."""

    def submit(self, work: Work, results: Results, action: Action) -> Future[Done]:
        """Start `action` on `results`: `work` runs it in this process (threads); a remote
        runner runs the same action from `results` and `action` alone."""
        ...

    def close(self, *, wait: bool = True) -> None: ...

    def halt(self) -> None:
        """Go on to no further action (`Done.then`): the run is stopping."""
        ...


class ThreadRunner:
    def __init__(self, jobs: int) -> None:
        self._pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="paperlint-action")

    def submit(self, work: Work, results: Results, action: Action) -> Future[Done]:
        return self._pool.submit(work)

    def close(self, *, wait: bool = True) -> None:
        """`wait=False` (after ^C): abandon what is still in flight (a hung request)."""
        self._pool.shutdown(wait=wait, cancel_futures=not wait)

    def halt(self) -> None:
        """A thread runs one action per call: nothing goes on."""


def uncapped(policy: Policy) -> bool:
    """No cap on calls or cost: the only plans that turn on the spend are the caps'."""
    return policy.budget.max_calls is None and policy.budget.max_cost_usd is None


def chained(
    ctx: EngineContext, policy: Policy, results: Results, outcome: StepOutcome
) -> tuple[Action, Results] | None:
    """What a runner may go on to after `outcome` without asking the loop, and the records it
    reads: its result's next action as `ready` plans it from `results` (the records the
    action read) with `outcome` applied. None when the run has a budget cap, the outcome
    stops the run or settles its result, a dependency has work, or the next action reads a
    record `results` does not hold. The loop checks the same plan on every record before it
    takes the action (`Parallel._continue`)."""
    if not uncapped(policy):
        return None
    action = outcome.action
    new = apply(results, outcome, policy)
    record = new.get(action.result)
    if record is None or not is_open(record) or stop_run(new, action):
        return None
    following = planned_for(new, ctx.order, action.result, policy, Spend(), deps=ctx.deps)
    if following is None:
        return None
    held = {r.id for r in new.results}
    if not needed_ids(ctx, new, following) & set(ctx.order) <= held:
        return None
    return following, needed_records(ctx, new, following)


@dataclass
class Flight:
    """The actions in flight and what the loop decided about starting more."""

    running: dict[Future[Done], Action]
    held: set[str]
    stop: Stop | None = None  # no more actions will start: why
    edge: Action | None = None  # an action found the model or Lean unavailable
    replans: dict[Action, int] = field(default_factory=dict)  # after a worker died
    unplanned: set[Future[Done]] = field(default_factory=set)
    """Actions a runner went on to that the loop would not have started: applied to nothing."""

    def busy(self) -> set[str]:
        return {action.result for action in self.running.values()}


class Parallel:
    """The loop's state across calls: what is in flight and how to run one action."""

    def __init__(
        self,
        ctx: EngineContext,
        policy: Policy,
        journal: Journal,
        runner: Runner,
        pool: Pool,
        jobs: int,
        until: str | None,
        on_action: Callable[[Action, Results, int], None],
    ) -> None:
        self.ctx = ctx
        self.policy = policy
        self.journal = journal
        self.runner = runner
        self.pool = pool
        self.jobs = max(1, jobs)
        self.until = until
        self.on_action = on_action
        self.flight = Flight(running={}, held=set())
        self.interrupts = Interrupts()

    def fill(self, results: Results) -> None:
        """Start actions until every slot is taken or none is ready."""
        flight = self.flight
        while flight.stop is None and flight.edge is None and len(flight.running) < self.jobs:
            with self.journal.lock:
                order = [rid for rid in self.ctx.order if rid not in flight.held]
                decision = ready(
                    results,
                    order,
                    self.policy,
                    self.journal.spend,
                    deps=self.ctx.deps,
                    busy=flight.busy(),
                    limit=1,  # one at a time: each start changes the spend the next is checked by
                )
                if isinstance(decision, Stop):
                    flight.stop = decision
                    return
                if not decision:
                    return  # everything left waits for an action in flight
                action = decision[0]
                if not before(self.until, action):
                    flight.held.add(action.result)
                    continue
                self.journal.emit(started_event(action))
            self.on_action(action, results, len(flight.running) + 1)
            future = self.runner.submit(self._work(results, action), results, action)
            flight.running[future] = action

    def _work(self, results: Results, action: Action) -> Work:
        ctx, pool = self.ctx, self.pool

        def work() -> Done:
            with pool.lease() as lease:
                outcome = execute(replace(ctx, verifier=lease), results, action)
            return Done(outcome=outcome, lost=lease.lost)

        return work

    def settle(self, results: Results) -> Results:
        """Wait for at least one action; apply and commit every one that has finished. (A ^C
        interrupts the wait, never a commit: `Interrupts`.)"""
        self.interrupts.waiting = True
        try:
            done, _ = wait(list(self.flight.running), return_when=FIRST_COMPLETED)
        finally:
            self.interrupts.waiting = False
        # Several may finish together: commit them in the order they were started.
        for future in [f for f in self.flight.running if f in done]:
            action = self.flight.running.pop(future)
            results = self._commit(results, action, future.result(), future)
        return results

    def _commit(
        self, results: Results, action: Action, done: Done, future: Future[Done] | None = None
    ) -> Results:
        flight = self.flight
        # An action's own events (a Ray action's reach the loop with its outcome) and its end
        # go out in one append.
        if future in flight.unplanned:
            # Run, and its calls logged, but not planned here: it changes no record, and its
            # result is planned again from the records as they are.
            flight.unplanned.discard(future)
            self.journal.emit_all(
                [*done.events, finished_event(action, done.outcome, results, results)]
            )
            return results
        if done.lost and flight.replans.get(action, 0) < REPLANS:
            # The worker died under the action: log its end, change no record, so the same
            # action is planned again (on a new worker).
            flight.replans[action] = flight.replans.get(action, 0) + 1
            lost = Failed(action=action, failure=Failure.LEAN_UNAVAILABLE, detail="worker died")
            self.journal.emit_all([*done.events, finished_event(action, lost, results, results)])
            return results
        new = apply(results, done.outcome, self.policy)
        self.journal.emit_all([*done.events, finished_event(action, done.outcome, results, new)])
        write_results(self.ctx.ws, new)
        if stop_run(new, action):
            flight.edge = flight.edge or action
        if done.then is not None:
            self._continue(new, *done.then)
        return new

    def _continue(
        self, results: Results, action: Action, future: Future[Done], *, committed: bool = True
    ) -> None:
        """Take `action`, which the runner went on to, as started (its start logged and
        charged now). If the loop would not have started it (a dependency found work
        meanwhile; `committed=False`: the outcome it went on from was not committed), it
        still runs to its end (its calls are made), but its outcome is applied to nothing
        (`Flight.unplanned`). Once the run is stopping, it is one more action in flight."""
        flight = self.flight
        with self.journal.lock:
            if not committed:
                flight.unplanned.add(future)
            elif (
                flight.stop is None
                and flight.edge is None
                and not self.interrupts.stopping.is_set()
            ):
                planned = planned_for(
                    results,
                    [rid for rid in self.ctx.order if rid not in flight.held],
                    action.result,
                    self.policy,
                    self.journal.spend,
                    deps=self.ctx.deps,
                    busy=flight.busy(),
                )
                if planned != action:
                    log.warning(
                        "%s: went on to without being planned; applied to nothing",
                        action.describe(),
                    )
                    flight.unplanned.add(future)
            self.journal.emit(started_event(action))
        self.on_action(action, results, len(flight.running) + 1)
        flight.running[future] = action

    def wind_down(self, results: Results, grace_s: float) -> Results:
        """After ^C: commit each action that finishes within `grace_s` (finished work is
        never lost); one that failed (its request was cancelled: its end is logged) or is
        still waiting on a request is abandoned, changing no record, so `resume` plans it
        again."""
        deadline = time.monotonic() + grace_s
        while self.flight.running:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            done, _ = wait(list(self.flight.running), timeout=left, return_when=FIRST_COMPLETED)
            for future in [f for f in self.flight.running if f in done]:
                action = self.flight.running.pop(future)
                finished = future.result()
                if not isinstance(finished.outcome, Failed) and not finished.lost:
                    results = self._commit(results, action, finished, future)
                    continue
                self.journal.emit_all(
                    [*finished.events, finished_event(action, finished.outcome, results, results)]
                )
                if finished.then is not None:
                    self._continue(results, *finished.then, committed=False)
        self.flight.running.clear()
        return results


def run_parallel(
    ctx: EngineContext,
    results: Results,
    policy: Policy,
    journal: Journal,
    *,
    jobs: int,
    until: str | None = None,
    progress: Progress | None = None,
    runner: Runner | None = None,
    pool: Pool | None = None,
) -> Summary:
    """The loop of `run.run_loop` with up to `jobs` actions in flight; same stops, same ends."""
    progress = progress or Progress()
    runner = runner or ThreadRunner(jobs)
    pool = pool or SharedVerifier(ctx.verifier)
    loop = Parallel(ctx, policy, journal, runner, pool, jobs, until, progress.started)
    where = str(ctx.ws.root)
    cancel = ctx.turns.cancel
    abandoned = False
    try:
        with loop.interrupts.taken() as stopping:
            try:
                while not stopping.is_set():
                    loop.fill(results)
                    if loop.flight.stop is not None or loop.flight.edge is not None:
                        runner.halt()
                    if not loop.flight.running:
                        break
                    results = loop.settle(results)
                if stopping.is_set():
                    raise KeyboardInterrupt
            except KeyboardInterrupt:
                # Plan nothing more; no request starts and no retry waits from here; what
                # finishes within the grace is committed, the rest abandoned (`resume`).
                cancel.set()
                runner.halt()
                results = loop.wind_down(results, GRACE_S)
                abandoned = True
                results = interrupt_run(ctx, results, journal)
                return summarise(results, workspace=where, interrupted=True)
    finally:
        runner.close(wait=not abandoned)
    flight = loop.flight
    if flight.edge is not None:
        why = edge_reason(results, flight.edge)
        results = finish_run(ctx, results, journal, None)
        summary = summarise(results, workspace=where, stop_reason="edge unavailable")
        return replace(summary, notes=[*summary.notes, *why])
    stop = flight.stop or Stop(None)
    if flight.held and stop.reason is None:
        results = finish_run(ctx, results, journal, None, until=until)
        return summarise(results, workspace=where, stop_reason=f"until {until}")
    results = finish_run(ctx, results, journal, stop.reason)
    return summarise(
        results, workspace=where, stop_reason=stop.reason.value if stop.reason else None
    )


GRACE_S = 3.0
"""After the first ^C: how long actions in flight get to finish and be committed."""


class Interrupts:
    """^C while actions run. The first sets `stopping` (the loop winds down) and, while the
    loop only waits for actions, interrupts that wait at once; during a commit it only sets
    the flag, so no commit is ever cut in two. A second ^C ends the process at once. Outside
    the main thread (an MCP job) there is no signal to take."""

    def __init__(self) -> None:
        self.stopping = threading.Event()
        self.waiting = False

    def _handler(self, signum: int, frame: object) -> None:
        if self.stopping.is_set():
            os.write(2, b"\ninterrupted again: exiting now\n")
            os._exit(int(ExitCode.INTERRUPTED))
        self.stopping.set()
        os.write(2, b"\ninterrupting: finishing what is in flight (^C again to exit now)\n")
        if self.waiting:
            raise KeyboardInterrupt

    @contextmanager
    def taken(self) -> Iterator[threading.Event]:
        if threading.current_thread() is not threading.main_thread():
            yield self.stopping
            return
        previous = signal.signal(signal.SIGINT, self._handler)
        try:
            yield self.stopping
        finally:
            signal.signal(signal.SIGINT, previous)


def edge_reason(results: Results, action: Action) -> list[str]:
    stopped = results.get(action.result)
    return [stopped.unfinished.detail] if stopped and stopped.unfinished else []


__all__ = ["Done", "Parallel", "Runner", "ThreadRunner", "chained", "run_parallel", "uncapped"]

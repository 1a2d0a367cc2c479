"""How a run executes its actions: how many at once, and where (local threads or Ray)."""

from __future__ import annotations

import importlib.util
import logging
import os
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass

from paperlint.errors import InputError

RAY_HINT = "install it with `pip install 'paperlint[ray]'` (or `pip install 'ray[default]'`)"
ADDRESS_HINT = "start one with `ray start --head`, or leave --address out to start one here"
AUTH_HINT = (
    "the cluster asks for its token (Ray's default for `ray start`): set RAY_AUTH_MODE=token, "
    "with the token in ~/.ray/auth_token or RAY_AUTH_TOKEN"
)
CONNECT_TIMEOUT_S = 5.0


@dataclass(frozen=True)
class RunOptions:
    jobs: int = 1
    """Actions at once; 1 is the serial queue, byte for byte."""
    executor: str = "threads"  # threads | ray
    address: str | None = None
    """With Ray: the cluster to join; None starts a local one (`ray.init()`)."""


def ray_installed() -> bool:
    return importlib.util.find_spec("ray") is not None


def require_ray() -> None:
    """`--executor ray` without Ray installed: a usage error that says how to install it."""
    if not ray_installed():
        raise InputError("--executor ray needs Ray, which is not installed", hint=RAY_HINT)


def reachable(address: str) -> None:
    """A `host:port` (or `ray://host:port`) address must answer before `ray.init` joins it:
    Ray itself retries an address nobody listens on for minutes. `auto` is Ray's to find."""
    where = address.removeprefix("ray://")
    host, sep, port = where.rpartition(":")
    if not sep:
        return  # `auto`, `local`: Ray looks the cluster up itself
    if not port.isdigit() or not host:
        raise InputError(f"--address {address}: not HOST:PORT", hint=ADDRESS_HINT)
    try:
        socket.create_connection((host, int(port)), timeout=CONNECT_TIMEOUT_S).close()
    except OSError as exc:
        raise InputError(
            f"--address {address}: no Ray cluster answers there ({exc})", hint=ADDRESS_HINT
        ) from exc


class _Session:
    """How deep this process is in `ray_cluster` blocks, and what to do when it leaves the
    outermost one: a `batch` enters once for all its papers, each paper's run once more inside,
    and what the runs start to last (the action actors) lasts until the outermost block ends."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.depth = 0
        self.on_leave: list[Callable[[], None]] = []


SESSION = _Session()


def on_leaving_cluster(cleanup: Callable[[], None]) -> None:
    """Call `cleanup` when this process leaves its outermost `ray_cluster` block."""
    with SESSION.lock:
        SESSION.on_leave.append(cleanup)


TASK_EVENTS = "RAY_task_events_report_interval_ms"
"""Ray's task events feed its dashboard and State API, which a run never opens: "0" turns them
off in this driver (and in a cluster it starts), and leaving the cluster then takes ~0.03 s
instead of ~0.28 s (docs/ray.md). A value the user set is kept."""


@contextmanager
def ray_cluster(run: RunOptions, *, background: bool = False) -> Iterator[Future[None]]:
    """Join the cluster at `run.address` (None: start a local one) unless this process already
    has; leave it on the way out only if it was joined here. Without Ray executor: nothing.
    What was registered with `on_leaving_cluster` runs when the outermost block ends.

    Yields a future done once the cluster takes work. `background`: the cluster is started (a
    local one) or joined (an address: importing Ray and joining take a second) on a thread of
    its own and the block entered at once (a run starts its actions on the driver meanwhile).
    An address nobody answers at stops the run before it starts; one that refuses to be
    joined (its token) stops it at its next action (`RayRunner`). Leaving waits
    for a start still under way, then stops the cluster."""
    ready: Future[None] = Future()
    if run.executor != "ray":
        ready.set_result(None)
        yield ready
        return
    require_ray()
    if run.address is not None:
        reachable(run.address)
    imported = sys.modules.get("ray")
    joined_here = imported is None or not imported.is_initialized()
    left = threading.Event()
    if joined_here:
        # on this thread, before any thread of the run starts a process: read when
        # `ray.init` starts this driver's core worker
        os.environ.setdefault(TASK_EVENTS, "0")
    if not joined_here:
        ready.set_result(None)
    elif background:
        threading.Thread(
            target=_join_into, args=(run, ready, left), name="paperlint-ray-start", daemon=True
        ).start()
    else:
        _join(run)
        ready.set_result(None)
    with SESSION.lock:
        SESSION.depth += 1
    try:
        yield ready
    finally:
        with SESSION.lock:
            SESSION.depth -= 1
            cleanups, SESSION.on_leave = (
                (SESSION.on_leave, []) if SESSION.depth == 0 else ([], SESSION.on_leave)
            )
        failed = ready.exception()  # waits for a start under way
        try:
            if failed is None:
                for cleanup in cleanups:  # before the cluster is left: they may talk to it
                    cleanup()
        finally:
            if joined_here and failed is None:
                import ray

                ray.shutdown()
            left.set()


def _join_into(run: RunOptions, ready: Future[None], left: threading.Event) -> None:
    """Start the cluster, then stay until it is left: Ray's processes are started to be killed
    when the thread that started them ends (`PR_SET_PDEATHSIG`, which follows the thread, not
    the process), so this thread must outlive the cluster."""
    try:
        _join(run)
    except BaseException as exc:  # handed to the run, which says so
        ready.set_exception(exc)
        return
    ready.set_result(None)
    left.wait()


class _NotMainThread(logging.Filter):
    """Ray warns when `ray.init` runs off the main thread that it set no SIGTERM handler: the
    CLI's own handling of signals is on the main thread, so the warning says nothing to act on."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "SIGTERM handler is not set" not in record.getMessage()


def _join(run: RunOptions) -> None:
    import ray

    quiet = _NotMainThread()
    ray_worker_log = logging.getLogger("ray._private.worker")
    ray_worker_log.addFilter(quiet)
    try:
        ray.init(
            # "local": a cluster of our own, never one a `ray start` left on this machine
            # (`ray.init()` would join that: someone else's, or a dead one's address file)
            address=run.address or "local",
            include_dashboard=False,
            log_to_driver=False,
            configure_logging=False,
        )
    except ConnectionError as exc:  # `auto` with no cluster running here, or refused
        hint = AUTH_HINT if "Authentication" in repr(exc.__cause__) else ADDRESS_HINT
        raise InputError(f"--address {run.address}: {exc}", hint=hint) from exc
    finally:
        ray_worker_log.removeFilter(quiet)

"""How a run executes its actions: how many at once, and where (local threads or Ray)."""

from __future__ import annotations

import importlib.util
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from paperlint.errors import InputError

RAY_HINT = "install it with `pip install 'paperlint[ray]'` (or `pip install 'ray[default]'`)"
ADDRESS_HINT = "start one with `ray start --head`, or leave --address out to start one here"
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


@contextmanager
def ray_cluster(run: RunOptions) -> Iterator[None]:
    """Join the cluster at `run.address` (None: start a local one) unless this process already
    has; leave it on the way out only if it was joined here. Without Ray executor: nothing."""
    if run.executor != "ray":
        yield
        return
    require_ray()
    import ray

    joined_here = not ray.is_initialized()
    if joined_here:
        if run.address is not None:
            reachable(run.address)
        try:
            ray.init(
                address=run.address,
                include_dashboard=False,
                log_to_driver=False,
                configure_logging=False,
            )
        except ConnectionError as exc:  # `auto` with no cluster running here
            raise InputError(f"--address {run.address}: {exc}", hint=ADDRESS_HINT) from exc
    try:
        yield
    finally:
        if joined_here:
            ray.shutdown()

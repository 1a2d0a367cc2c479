"""How a run executes its actions: how many at once, and where (local threads or Ray)."""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass

from paperlint.errors import InputError

RAY_HINT = "install it with `pip install 'paperlint[ray]'` (or `pip install 'ray[default]'`)"


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

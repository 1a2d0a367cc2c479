"""Under pytest-xdist (.ci/run passes `-n auto`) every worker draws the crash sweep's sample
from the controller's seed: workers that drew their own would collect different items, which
xdist refuses, and PAPERLINT_CRASH_SEED would no longer repeat a run."""

from types import SimpleNamespace

import pytest

from tests import conftest


def _config(**attrs: object) -> SimpleNamespace:
    return SimpleNamespace(stash=pytest.Stash(), **attrs)


def test_a_worker_takes_the_seed_the_controller_sends(monkeypatch):
    monkeypatch.delenv(conftest.CRASH_SEED_ENV, raising=False)
    controller = _config()
    conftest.pytest_configure(controller)
    node = SimpleNamespace(config=controller, workerinput={})
    conftest.pytest_configure_node(node)
    workers = [_config(workerinput=dict(node.workerinput)) for _ in range(3)]
    for worker in workers:
        conftest.pytest_configure(worker)
    seeds = {worker.stash[conftest.crash_seed] for worker in workers}
    assert seeds == {controller.stash[conftest.crash_seed]}


def test_the_seed_variable_still_wins_without_xdist(monkeypatch):
    monkeypatch.setenv(conftest.CRASH_SEED_ENV, "1234")
    config = _config()
    conftest.pytest_configure(config)
    assert config.stash[conftest.crash_seed] == 1234

"""The registry is the one list of steps: registering a step (one line) is all it takes for
the queue to plan it, the shell to run it and `apply` to record it."""

import pytest

from paperlint.engine import steps
from paperlint.engine.actions import Action, ActionKind
from paperlint.engine.apply import apply_one
from paperlint.engine.execute import execute
from paperlint.engine.plan import Policy, next_action
from paperlint.engine.steps import REGISTRY
from paperlint.records.results import ResultRecord, Results
from paperlint.records.work import ResultWork
from tests.engine import example_step

POLICY = Policy(prover_ladder=("m",))
DEFINITION = ResultRecord(id="def:a", number="1", kind="definition", verdict_bearing=False)
GATED = DEFINITION.with_work(ResultWork(fingerprint="sha256:f"))


@pytest.fixture
def registered(monkeypatch):
    # the one line a new step adds to paperlint/engine/steps/__init__.py's REGISTRY
    monkeypatch.setitem(REGISTRY, example_step.STEP.kind, example_step.STEP)


def test_an_unregistered_step_is_never_planned():
    assert next_action(GATED, POLICY) is None  # a gated definition: the built-ins are done


def test_a_registered_step_is_planned_run_and_applied(registered):
    action = next_action(GATED, POLICY)
    assert action == Action(kind="describe", result="def:a")
    outcome = execute(None, Results(results=[GATED]), action)  # this step reads no context
    assert outcome == example_step.DescribeOutcome(action=action, text="`def:a` is a definition")
    after = apply_one(GATED, outcome, POLICY)
    assert after.notes == ["described: `def:a` is a definition"]
    assert after.work == GATED.work
    assert next_action(after, POLICY) is None  # it is done: the queue moves on


def test_a_registered_step_waits_for_its_readiness(registered):
    assert next_action(DEFINITION, POLICY).kind == ActionKind.DRAFT  # not gated yet


def test_every_built_in_kind_has_exactly_one_step():
    assert list(REGISTRY) == [s.kind for s in REGISTRY.values()]
    assert set(ActionKind) == set(REGISTRY)
    modules = [getattr(steps, name) for name in dir(steps) if hasattr(getattr(steps, name), "STEP")]
    assert sorted(m.STEP.kind for m in modules) == sorted(REGISTRY)

"""The registry is the one list of steps: registering a step (one line) is all it takes for
the queue to plan it, the shell to run it and `apply` to record it."""

import json

import pytest

from paperlint.engine import steps
from paperlint.engine.actions import Action, ActionKind
from paperlint.engine.apply import apply_one
from paperlint.engine.execute import execute
from paperlint.engine.plan import Policy, next_action
from paperlint.engine.steps import REGISTRY, has_unknown_slots
from paperlint.records.results import ResultRecord, Results
from paperlint.records.rewind import rewind
from paperlint.records.work import UnknownSlot
from paperlint.records.workspace import Workspace, write_results
from tests.engine import example_step
from tests.workstate import work_of

POLICY = Policy(prover_ladder=("m",))
DEFINITION = ResultRecord(id="def:a", number="1", kind="definition", verdict_bearing=False)
GATED = DEFINITION.with_work(work_of(fingerprint="sha256:f"))


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
    # its state is its own slot (issue #27: before, the example step kept no state)
    assert after.work == GATED.work.with_slot(example_step.Described(text=outcome.text))
    assert example_step.state(after).text == "`def:a` is a definition"
    assert next_action(after, POLICY) is None  # it is done: the queue moves on


def _described(tmp_path):
    ws = Workspace(tmp_path)
    slot = example_step.Described(text="`a` is a definition")
    record = GATED.with_work(GATED.work.with_slot(slot))
    write_results(ws, Results(results=[record]))
    return ws, record


def test_a_registered_steps_slot_is_stored_under_its_kind_and_read_back(registered, tmp_path):
    ws, record = _described(tmp_path)
    state = json.loads((ws.root / json.loads(ws.results.read_text())["engine_state"]).read_text())
    assert state["work"]["def:a"]["slots"]["describe"] == {"text": "`a` is a definition"}
    assert ws.load_results().results[0].work == record.work


def test_a_slot_whose_step_is_unknown_is_kept_as_stored(registered, tmp_path, monkeypatch):
    ws, record = _described(tmp_path)
    monkeypatch.delitem(REGISTRY, example_step.KIND)  # a process without the step
    loaded = ws.load_results()
    described = UnknownSlot(stored={"text": "`a` is a definition"})
    assert loaded.results[0].work.slots["describe"] == described
    before = ws.results.read_bytes()
    write_results(ws, loaded)
    assert ws.results.read_bytes() == before  # written back unchanged
    # a step never sees it as its default: the engine reads the records again first
    monkeypatch.setitem(REGISTRY, example_step.KIND, example_step.STEP)
    assert has_unknown_slots(loaded)
    with pytest.raises(RuntimeError, match="describe slot was read without its type"):
        example_step.state(loaded.results[0])
    assert example_step.state(ws.load_results().results[0]).text == "`a` is a definition"


@pytest.mark.parametrize(("action", "kept"), [("re-prove", True), ("re-gate", False)])
@pytest.mark.parametrize("revision", [True, False])
def test_a_reset_keeps_what_the_step_declares(registered, action, kept, revision):
    described = GATED.with_work(GATED.work.with_slot(example_step.Described(text="t")))
    after = rewind(described, action, revision=revision)
    assert example_step.state(after).text == ("t" if kept else None)


def test_a_registered_step_waits_for_its_readiness(registered):
    assert next_action(DEFINITION, POLICY).kind == ActionKind.DRAFT  # not gated yet


def test_every_built_in_kind_has_exactly_one_step():
    assert list(REGISTRY) == [s.kind for s in REGISTRY.values()]
    assert set(ActionKind) == set(REGISTRY)
    modules = [getattr(steps, name) for name in dir(steps) if hasattr(getattr(steps, name), "STEP")]
    assert sorted(m.STEP.kind for m in modules) == sorted(REGISTRY)

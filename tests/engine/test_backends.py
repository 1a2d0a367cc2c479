"""The run's edges (engine/backends.py): the no-Lean stand-in, the budget refusal, restart
events and the wiring of live and recorded edges. No model is called and no Lean is run."""

from pathlib import Path

import pytest

from paperlint.agents.faults import BudgetSpent
from paperlint.config import Config
from paperlint.engine.backends import (
    EdgeOptions,
    UnavailableVerifier,
    make_backends,
    refuse_over_budget,
    report_restarts,
)
from paperlint.lean.replay import RecordingVerifier, ReplayVerifier
from paperlint.lean.verifier import FailureCode, LeanContext, Outcome
from paperlint.records.spend import Spend

ROOT = Path(__file__).resolve().parents[2]
LEAN_REPLAY = ROOT / "fixtures" / "sample-variance" / "replay"


def test_the_stand_in_answers_unavailable_with_its_reason(tmp_path):
    verifier = UnavailableVerifier("no lake on PATH")
    context = LeanContext(header="import Mathlib")
    answers = [
        verifier.check(context, "theorem t : True := trivial", timeout_s=1),
        verifier.print_axioms(context, ["t"], timeout_s=1),
        verifier.final_check(tmp_path / "T.lean", ["t"], timeout_s=1),
    ]
    assert [(a.outcome, a.code, a.hint) for a in answers] == [
        (Outcome.UNAVAILABLE, FailureCode.UNAVAILABLE, "no lake on PATH")
    ] * 3
    assert verifier.close() is None


def _budget(calls=None, cost=None) -> Config:
    config = Config()
    return config.with_overrides(max_calls=calls, max_cost_usd=cost)


@pytest.mark.parametrize(
    ("calls", "cost", "spent", "refused"),
    [
        (None, None, Spend(calls=10**6, cost_usd=1e6), None),
        (6, None, Spend(calls=5), None),
        (6, None, Spend(calls=6), "the next request would pass --max-calls 6"),
        (None, 1.0, Spend(cost_usd=0.99), None),
        (None, 1.0, Spend(cost_usd=1.0), r"\$1.0000 spent of --max-cost 1"),
    ],
    ids=["no-budget", "calls-left", "calls-spent", "cost-left", "cost-spent"],
)
def test_refuse_over_budget(calls, cost, spent, refused):
    config = _budget(calls, cost)
    if refused is None:
        refuse_over_budget(config, spent)
    else:
        with pytest.raises(BudgetSpent, match=refused):
            refuse_over_budget(config, spent)


class _Warm:
    on_restart = None


class _Wrapper:
    def __init__(self, inner):
        self.inner = inner


class _Restart:
    reason = "memory"
    rss_mb = 1234.6


@pytest.mark.parametrize("wrapped", [False, True], ids=["warm", "recording-wrapper"])
def test_each_restart_of_a_warm_repl_is_an_event(wrapped):
    warm = _Warm()
    events = []
    report_restarts(_Wrapper(warm) if wrapped else warm, events.append)
    warm.on_restart(_Restart())
    assert events == [{"type": "lean_restart", "reason": "memory", "rss_mb": 1235}]


def test_a_verifier_without_restarts_is_left_alone():
    stand_in = UnavailableVerifier("x")
    report_restarts(stand_in, lambda event: pytest.fail("no event expected"))
    assert not hasattr(stand_in, "on_restart")


def test_live_models_with_recorded_lean_answers(tmp_path):
    made = make_backends(Config(), None, edges=EdgeOptions(lean_replay=LEAN_REPLAY))
    try:
        assert isinstance(made.verifier, ReplayVerifier)
        assert made.replay_parts == ("lean",)
        assert made.notes == []
    finally:
        made.verifier.close()


def test_recording_wraps_the_live_verifier(tmp_path):
    edges = EdgeOptions(record=tmp_path / "rec", lean_replay=LEAN_REPLAY)
    made = make_backends(Config(), None, edges=edges)
    try:
        assert isinstance(made.verifier, RecordingVerifier)
        assert isinstance(made.verifier.inner, ReplayVerifier)
    finally:
        made.verifier.close()

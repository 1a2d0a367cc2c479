"""The opening of a run (engine/opening.py): the edges built complete, the one budget rule, the
settings derived from the spec. No model is called and no Lean is run."""

import json
from pathlib import Path

import pytest

from paperlint.agents.faults import BudgetSpent
from paperlint.config import Config
from paperlint.engine.opening import Learned, Models, charge, derive, lean_edge
from paperlint.lean.replay import ReplayVerifier
from paperlint.lean.verifier import FailureCode, LeanContext, Outcome, UnavailableVerifier
from paperlint.records.journal import Journal
from paperlint.records.spend import Budget, Spend
from paperlint.spec import Edges, replay_parts, spec_for
from paperlint.store import EventLog

ROOT = Path(__file__).resolve().parents[2]
LEAN_REPLAY = ROOT / "fixtures" / "sample-variance" / "replay"
PAPER = ROOT / "fixtures" / "sample-variance" / "paper.tex"


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


@pytest.mark.parametrize(
    ("calls", "cost", "spent", "refused"),
    [
        (None, None, Spend(calls=10**6, cost_usd=1e6), None),
        (6, None, Spend(calls=5), None),
        (6, None, Spend(calls=6), "the next request would pass --max-calls 6"),
        (None, 1.0, Spend(cost_usd=0.99), None),
        (None, 1.0, Spend(cost_usd=1.0), "$1.0000 spent of --max-cost 1"),
    ],
    ids=["no-budget", "calls-left", "calls-spent", "cost-left", "cost-spent"],
)
def test_the_one_budget_rule(calls, cost, spent, refused):
    assert Budget(max_calls=calls, max_cost_usd=cost).refusal(spent) == refused


def _spec(tmp_path, **edges):
    config = Config().with_overrides(max_calls=2)
    return spec_for(config, PAPER, edges=Edges(**edges))


def test_a_charge_is_checked_and_logged_under_the_journal_lock(tmp_path):
    spec = _spec(tmp_path)
    journal = Journal(EventLog(tmp_path / "events.jsonl"))
    charge(spec, journal, {"result": "lem:a", "repair": 1})
    assert journal.spend == Spend(calls=1)
    charge(spec, journal, {"result": "lem:a", "try": 2})
    with pytest.raises(BudgetSpent, match="--max-calls 2"):
        charge(spec, journal, {"result": "lem:a", "try": 3})
    lines = [json.loads(x) for x in (tmp_path / "events.jsonl").read_text().splitlines()]
    assert [(e["type"], e["repair"], e["try"]) for e in lines] == [
        ("charge", 1, 1),
        ("charge", 0, 2),
    ]


def test_live_models_with_recorded_lean_answers(tmp_path):
    spec = _spec(tmp_path, lean_replay=LEAN_REPLAY)
    edge = lean_edge(spec, None)
    try:
        assert isinstance(edge.verifier, ReplayVerifier) and edge.new_worker is None
        assert replay_parts(spec) == ("lean",)
    finally:
        edge.verifier.close()


def test_recording_copies_the_recorded_lean_answers_it_serves(tmp_path):
    spec = _spec(tmp_path, record=tmp_path / "rec", lean_replay=LEAN_REPLAY)
    edge = lean_edge(spec, None)
    lines = (LEAN_REPLAY / "lean.jsonl").read_text().splitlines()
    entry = next(e for e in map(json.loads, lines) if e["kind"] == "check")
    request = entry["request"]
    context = LeanContext(header=request["header"], accepted=tuple(request["accepted"]))
    edge.verifier.check(context, request["candidate"], timeout_s=5)
    copied = [json.loads(x) for x in (tmp_path / "rec" / "lean.jsonl").read_text().splitlines()]
    assert copied == [entry]


def test_derive_takes_every_setting_from_the_spec_and_none_from_elsewhere(tmp_path):
    config = Config.model_validate(
        {
            "lean": {"timeout_s": 7, "final_timeout_s": 70, "max_heartbeats": 1000},
            "prover": {"max_turns": 3, "tool_loop": "auto"},
            "budget": {"prover_attempts": 5, "max_calls": 9},
            "faithfulness": {"double_draft": True},
        }
    )
    spec = spec_for(config, PAPER)
    models = Models({"gate": "g"}, ("p1", "p2"), turns=True, native_tools=True)
    settings, policy = derive(spec, models, Learned(no_automation=frozenset({"lem:a"})))
    assert (settings.lean_timeout_s, settings.final_timeout_s) == (7, 70)
    assert "maxHeartbeats 1000" in settings.header
    assert settings.loop_budget.max_turns == 3 and settings.tool_loop
    assert settings.no_automation == {"lem:a"} and settings.models == {"gate": "g"}
    assert policy.prover_ladder == ("p1", "p2") and policy.prover_attempts == 5
    assert policy.double_draft and policy.budget == Budget(max_calls=9)


@pytest.mark.parametrize(
    ("mode", "turns", "native", "complete", "tool_loop"),
    [
        ("auto", True, True, True, True),
        ("auto", True, False, True, False),  # the text protocol only when asked for
        ("on", True, False, True, True),
        ("on", False, False, True, False),  # a replay without recorded turns: one-shot
        ("off", True, True, True, False),
        ("auto", True, True, False, False),  # no model or no Lean: nothing runs
    ],
)
def test_when_the_tool_loop_runs(mode, turns, native, complete, tool_loop):
    spec = spec_for(Config.model_validate({"prover": {"tool_loop": mode}}), PAPER)
    models = Models({}, ("p",), turns=turns, native_tools=native)
    settings, _ = derive(spec, models, Learned(), complete=complete)
    assert settings.tool_loop is tool_loop

"""The strategy chooser: CausalEvolve's discounted reward, explore/exploit, determinism."""

import importlib.util
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from paperlint.learning.runrecord import Features, RunEntry
from paperlint.learning.strategy import (
    STRATEGIES,
    ChooserSettings,
    Strategy,
    Trial,
    choose,
    rewards,
    trial_value,
    trials_of,
)

NAMES = [s.name for s in STRATEGIES]
ROOT = Path(__file__).resolve().parents[2]


def t(strategy: str, value: float, kind: str = "analysis") -> Trial:
    return Trial(kind=kind, strategy=strategy, value=value)


@pytest.mark.parametrize(
    ("proved", "calls", "budget", "expected"),
    [
        (False, 0, 12, 0.0),
        (False, 12, 12, 0.0),
        (True, 0, 12, 1.0),  # closed by automation: the best value
        (True, 6, 12, 0.75),
        (True, 12, 12, 0.5),
        (True, 40, 12, 0.5),  # over budget counts as the whole budget
        (True, 3, 0, 0.5),  # a zero budget is treated as one call
    ],
)
def test_trial_value(proved, calls, budget, expected):
    assert trial_value(proved=proved, model_calls=calls, call_budget=budget) == expected


def test_rewards_are_discounted_against_the_best_so_far():
    trials = [t("a", 0.6), t("b", 1.0), t("a", 0.8), t("c", 0.0)]
    got = rewards(trials, tau=0.5)
    # best of the kind is 1.0: R = (y - 0.5)+
    assert got == {"a": [pytest.approx(0.1), pytest.approx(0.3)], "b": [0.5], "c": [0.0]}


def test_rewards_keep_kinds_apart():
    trials = [t("a", 1.0, kind="x"), t("a", 0.4, kind="y")]
    assert rewards(trials, tau=0.5) == {"a": [0.5, pytest.approx(0.2)]}


@pytest.mark.parametrize("tau", [0.0, 1.0, -0.1, 1.5])
def test_tau_must_lie_in_the_open_unit_interval(tau):
    with pytest.raises(ValidationError, match="tau"):
        ChooserSettings(tau=tau)


def test_below_min_trials_the_default_is_used():
    history = [t("search-first", 1.0)] * 5
    choice = choose(history, "analysis", settings=ChooserSettings(min_trials=6))
    assert (choice.strategy, choice.phase) == ("baseline", "default")
    assert "5 of 6" in choice.reason


def test_unknown_default_is_refused():
    with pytest.raises(ValueError, match="default"):
        choose([], "analysis", default="nope")


def test_exploration_takes_the_least_tried():
    history = [t(name, 0.9) for name in NAMES if name != "front-loaded"]
    choice = choose(history, "analysis", settings=ChooserSettings(min_trials=0, phase_length=6))
    assert choice.phase == "explore"
    assert choice.strategy == "front-loaded"
    assert choice.tries["front-loaded"] == 0


def test_exploitation_takes_the_highest_mean_reward():
    s = ChooserSettings(min_trials=0, phase_length=6)
    history = [t(name, 0.6) for name in NAMES]  # one explore phase: each tried once
    history[2] = t(NAMES[2], 1.0)
    choice = choose(history, "analysis", settings=s)
    assert choice.phase == "exploit"
    assert choice.strategy == NAMES[2]
    assert choice.mean_reward[NAMES[2]] == 0.5
    assert "highest mean reward" in choice.reason


def test_other_kinds_do_not_count():
    s = ChooserSettings(min_trials=0, phase_length=1)
    history = [t("second-model", 1.0, kind="algebra")]
    choice = choose(history, "analysis", settings=s)
    assert choice.iteration == 0 and choice.phase == "explore"


def test_choice_is_deterministic_under_a_seed_and_varies_with_it():
    picks = {
        seed: choose([], "analysis", settings=ChooserSettings(min_trials=0, seed=seed)).strategy
        for seed in range(30)
    }
    again = {
        seed: choose([], "analysis", settings=ChooserSettings(min_trials=0, seed=seed)).strategy
        for seed in range(30)
    }
    assert picks == again
    assert len(set(picks.values())) > 1  # the seed matters among equally untried options


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(NAMES), st.floats(0, 1, allow_nan=False)),
        max_size=60,
    ),
    st.integers(1, 5),
    st.integers(0, 3),
)
def test_exploration_never_starves_an_option(raw, phase, seed):
    history = [t(name, value) for name, value in raw]
    choice = choose(
        history, "analysis", settings=ChooserSettings(min_trials=0, phase_length=phase, seed=seed)
    )
    assert choice.strategy in NAMES
    if choice.phase == "explore":
        assert choice.tries[choice.strategy] == min(choice.tries.values())
    else:
        assert choice.mean_reward[choice.strategy] == max(choice.mean_reward.values())


def test_custom_options():
    opts = [Strategy(name="baseline"), Strategy(name="solo", automation=False)]
    choice = choose([t("baseline", 1.0)], "analysis", opts, ChooserSettings(min_trials=0))
    assert choice.strategy == "solo"


def _entry(**kw):
    base = dict(
        at="2026-12-01T00:00:00+00:00",
        paper_sha256="0" * 64,
        result="lem:a",
        result_kind="lemma",
        features=Features(),
        outcome="verified",
        prover_calls=6,
        model_calls=9,
    )
    return RunEntry(**{**base, **kw})


def test_trials_of_the_record():
    entries = [
        _entry(),
        _entry(features=Features(area="analysis"), outcome="unfinished"),
        _entry(replay=True),
        # a check without a model: unfinished before any call, no trial of any strategy
        _entry(outcome="unfinished", detail="model_unavailable", prover_calls=0, model_calls=0),
    ]
    assert trials_of(entries) == [
        Trial(kind="lemma", strategy="baseline", value=0.75),
        Trial(kind="analysis", strategy="baseline", value=0.0),
    ]
    assert len(trials_of(entries, live_only=False)) == 4


def _benchmark():
    spec = importlib.util.spec_from_file_location(
        "strategy_bench", ROOT / "benchmarks" / "strategy_chooser.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["strategy_bench"] = module
    spec.loader.exec_module(module)
    return module


def test_simulated_record_converges_to_the_known_best_and_starves_nothing():
    bench = _benchmark()
    s = ChooserSettings(min_trials=0, phase_length=6, tau=0.5)
    results = [bench.simulate(runs=120, seed=seed, settings=s) for seed in range(4)]
    for r in results:
        assert r.starved_picks == 0
        assert r.fewest_tries >= 8  # every strategy of every kind kept being tried
    # the kinds with a clear best settle on it in every seed
    for kind in ("analysis", "algebra"):
        share = sum(r.late_best_share[kind] for r in results) / len(results)
        assert share >= 0.8, (kind, share)

"""Adaptive strategy choice: CausalEvolve's discounted reward with explore/exploit alternation.

A *strategy* is a named combination of outcome factors (which model of the role's list, whether
the automation ladder runs first, premises up front or by search, how the attempt budget is
split). Each obligation kind (a result kind, or a Mathlib area) has its own history of *trials*
(strategy, value `y` in [0, 1]). The reward of a trial is CausalEvolve's

    R = (y - tau * v)+        v: the best value of that kind so far, tau in (0, 1)

The discount makes a trial that comes close to the best count, since beating the best is rare
and cannot be estimated from a few trials. Choices alternate in phases of `phase_length`
trials: *explore*, then *exploit* (the strategy of highest mean reward). Exploration takes the
least-tried strategies first — a seeded random pick among them — so that no option is starved,
which plain random exploration does not promise. Everything is a pure function of the history
and the settings: the same record and seed give the same choice, so a replay reproduces it.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from paperlint.learning.runrecord import RunEntry, is_real_trial
from paperlint.records.learning import Choice, StrategyPlan

Premises = Literal["upfront", "search"]
Split = Literal["even", "front"]


class Strategy(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    model_rank: int = 0  # index into the role's model list
    automation: bool = True  # the automation ladder before any model call
    premises: Premises = "upfront"  # search hits in the first prompt, or by a search turn
    attempt_split: Split = "even"  # budget spread evenly over obligations, or front-loaded


STRATEGIES: Final[tuple[Strategy, ...]] = (
    Strategy(name="baseline"),
    Strategy(name="no-automation", automation=False),
    Strategy(name="search-first", premises="search"),
    Strategy(name="front-loaded", attempt_split="front"),
    Strategy(name="second-model", model_rank=1),
    Strategy(name="second-model-search", model_rank=1, premises="search"),
)


class Trial(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: str
    strategy: str
    value: float = Field(ge=0.0, le=1.0)


def trial_value(*, proved: bool, model_calls: int, call_budget: int) -> float:
    """The main target `y`: 0 when unproved, else 1 less half the share of the budget used."""
    if not proved:
        return 0.0
    used = min(max(model_calls, 0), max(call_budget, 1)) / max(call_budget, 1)
    return round(1.0 - 0.5 * used, 6)


class ChooserSettings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    tau: float = 0.5
    phase_length: int = Field(default=4, ge=1)
    min_trials: int = Field(default=20, ge=0)  # below this many trials of a kind: the default
    seed: int = 0

    @field_validator("tau")
    @classmethod
    def _tau_in_open_interval(cls, tau: float) -> float:
        if not 0.0 < tau < 1.0:
            raise ValueError("tau must lie strictly between 0 and 1")
        return tau


DEFAULT_SETTINGS: Final = ChooserSettings()


def rewards(trials: Sequence[Trial], *, tau: float) -> dict[str, list[float]]:
    """Each trial's discounted reward against the best value of its kind so far.

    `v` is the best value at the time of the choice, for every past trial alike: a trial made
    early, against a low best, would otherwise keep an inflated reward for ever and favour
    whichever strategy happened to be tried first.
    """
    best: dict[str, float] = defaultdict(float)
    for t in trials:
        best[t.kind] = max(best[t.kind], t.value)
    out: dict[str, list[float]] = defaultdict(list)
    for t in trials:
        out[t.strategy].append(max(0.0, t.value - tau * best[t.kind]))
    return dict(out)


def choose(
    history: Sequence[Trial],
    kind: str,
    options: Sequence[Strategy] = STRATEGIES,
    settings: ChooserSettings = DEFAULT_SETTINGS,
    *,
    default: str = "baseline",
) -> Choice:
    """The strategy for the next obligation of `kind`, and why (pure, deterministic)."""
    names = [o.name for o in options]
    if default not in names:
        raise ValueError(f"default strategy {default!r} is not among the options")
    mine = [t for t in history if t.kind == kind and t.strategy in names]
    n = len(mine)
    tries = {name: 0 for name in names}
    for t in mine:
        tries[t.strategy] += 1
    got = rewards(mine, tau=settings.tau)
    mean = {name: round(sum(got[name]) / len(got[name]), 6) for name in names if got.get(name)}
    if n < settings.min_trials:
        return Choice(
            kind=kind,
            strategy=default,
            phase="default",
            iteration=n,
            reason=f"{n} of {settings.min_trials} trials of {kind!r} recorded: the default",
            mean_reward=mean,
            tries=tries,
        )
    iteration = n - settings.min_trials
    explore = (iteration // settings.phase_length) % 2 == 0 or not mean
    if explore:
        fewest = min(tries.values())
        pool = sorted(name for name in names if tries[name] == fewest)
        rng = random.Random(f"{settings.seed}:{kind}:{n}")
        pick = pool[rng.randrange(len(pool))]
        reason = f"explore: {pick!r} is among the least tried ({fewest} trial(s))"
        return Choice(
            kind=kind,
            strategy=pick,
            phase="explore",
            iteration=n,
            reason=reason,
            mean_reward=mean,
            tries=tries,
        )
    pick = sorted(mean, key=lambda name: (-mean[name], tries[name], name))[0]
    reason = (
        f"exploit: {pick!r} has the highest mean reward {mean[pick]:.3f} over {tries[pick]} "
        f"trial(s) (tau {settings.tau})"
    )
    return Choice(
        kind=kind,
        strategy=pick,
        phase="exploit",
        iteration=n,
        reason=reason,
        mean_reward=mean,
        tries=tries,
    )


def trials_of(
    entries: Sequence[RunEntry], *, call_budget: int = 12, live_only: bool = True
) -> list[Trial]:
    """The run record as trials: kind is the Mathlib area, else the result kind.

    An issue counts as unproved for the strategy that was used (it found no proof). A replayed
    check, a check without a model and a result that never reached one teach nothing about a
    strategy (`runrecord.is_real_trial`): left out unless asked for (an older record may hold
    them).
    """
    return [
        Trial(
            kind=e.features.area or e.result_kind,
            strategy=e.strategy,
            value=trial_value(
                proved=e.outcome == "verified", model_calls=e.prover_calls, call_budget=call_budget
            ),
        )
        for e in entries
        if not live_only or is_real_trial(e)
    ]


# --- the engine's choice at the start of a check ----------------------------------------------
# The factors the engine applies today: the automation ladder on or off. A strategy whose other
# factors it would ignore (premises by search, a budget split, the second model) is not offered,
# or the run record would credit it with runs made the baseline way.
ENGINE_STRATEGIES: Final[tuple[Strategy, ...]] = tuple(
    s for s in STRATEGIES if s.name in ("baseline", "no-automation")
)


def plan_strategies(
    entries: Sequence[RunEntry],
    results: Sequence[tuple[str, str]],
    settings: ChooserSettings = DEFAULT_SETTINGS,
    options: Sequence[Strategy] = ENGINE_STRATEGIES,
) -> StrategyPlan:
    """A strategy per (result id, result kind), chosen from the run record (pure).

    The kind is the result kind: the Mathlib area is only known once a statement is gated.
    Every result of one kind in one check gets the same choice (the record does not grow
    during a check); with fewer than `settings.min_trials` live trials it is the default.
    """
    history = [t for t in trials_of(entries) if t.strategy in {o.name for o in options}]
    by_kind = {kind: choose(history, kind, options, settings) for kind in {k for _, k in results}}
    return StrategyPlan(
        seed=settings.seed,
        records=len(entries),
        choices={rid: by_kind[kind] for rid, kind in results},
    )


def baseline_plan(results: Sequence[tuple[str, str]], seed: int) -> StrategyPlan:
    """Every result the baseline, because the configuration says so."""
    reason = "[learning] strategy = baseline: no choice is made"
    return StrategyPlan(
        seed=seed,
        records=0,
        choices={
            rid: Choice(kind=kind, strategy="baseline", phase="default", iteration=0, reason=reason)
            for rid, kind in results
        },
    )

"""The strategy chooser on a simulated run record whose best strategy per kind is known.

Each obligation kind has a true success probability and a typical call count per strategy
(below: one best strategy per kind, the others clearly or narrowly worse). Every simulated run
proves one obligation of each kind with the strategy `choose` picks, draws the outcome from the
truth with a seeded generator, and appends the trial. Printed per seed set:

- the run after which every exploit choice of a kind is its best strategy (convergence);
- the share of the last 50 exploit choices of a kind that were its best strategy;
- starvation: how often an exploration pick was *not* among the least-tried strategies (must
  be 0), and the fewest tries any strategy of any kind had at the end.

usage: python benchmarks/strategy_chooser.py [--runs 200] [--seeds 20] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from dataclasses import dataclass

from paperlint.learning.strategy import (
    STRATEGIES,
    ChooserSettings,
    Trial,
    choose,
    trial_value,
)

CALL_BUDGET = 12

# kind -> strategy -> (success probability, model calls when it succeeds)
TRUTH: dict[str, dict[str, tuple[float, int]]] = {
    "analysis": {
        "baseline": (0.45, 6),
        "no-automation": (0.35, 8),
        "search-first": (0.80, 4),  # best: names are the hard part
        "front-loaded": (0.50, 6),
        "second-model": (0.55, 5),
        "second-model-search": (0.70, 5),
    },
    "combinatorics": {
        "baseline": (0.85, 1),  # best: automation closes most of it
        "no-automation": (0.60, 5),
        "search-first": (0.80, 2),
        "front-loaded": (0.75, 2),
        "second-model": (0.70, 3),
        "second-model-search": (0.65, 3),
    },
    "algebra": {
        "baseline": (0.50, 5),
        "no-automation": (0.45, 6),
        "search-first": (0.55, 5),
        "front-loaded": (0.50, 4),
        "second-model": (0.85, 3),  # best: the stronger model
        "second-model-search": (0.75, 4),
    },
}


def best_of(kind: str) -> str:
    def expected(name: str) -> float:
        p, calls = TRUTH[kind][name]
        return p * trial_value(proved=True, model_calls=calls, call_budget=CALL_BUDGET)

    return max(TRUTH[kind], key=expected)


@dataclass(frozen=True)
class SeedResult:
    converged_after: dict[str, int | None]  # kind -> run index, None if never
    late_best_share: dict[str, float]  # kind -> share of the last 50 exploit picks that were best
    starved_picks: int  # exploration picks that were not among the least tried
    fewest_tries: int  # of any strategy of any kind, at the end


def simulate(*, runs: int, seed: int, settings: ChooserSettings) -> SeedResult:
    rng = random.Random(seed)
    history: list[Trial] = []
    picks: dict[str, list[tuple[int, str, str]]] = {k: [] for k in TRUTH}
    starved = 0
    for run in range(runs):
        for kind in TRUTH:
            choice = choose(history, kind, STRATEGIES, settings)
            if choice.phase == "explore" and choice.tries[choice.strategy] > min(
                choice.tries.values()
            ):
                starved += 1
            p, calls = TRUTH[kind][choice.strategy]
            proved = rng.random() < p
            spent = max(1, calls + rng.randint(-1, 2)) if proved else CALL_BUDGET
            value = trial_value(proved=proved, model_calls=spent, call_budget=CALL_BUDGET)
            history.append(Trial(kind=kind, strategy=choice.strategy, value=value))
            picks[kind].append((run, choice.phase, choice.strategy))
    converged: dict[str, int | None] = {}
    late: dict[str, float] = {}
    for kind, seq in picks.items():
        best = best_of(kind)
        exploits = [(run, s) for run, phase, s in seq if phase == "exploit"]
        last_wrong = max((run for run, s in exploits if s != best), default=-1)
        converged[kind] = last_wrong + 1 if exploits and last_wrong < exploits[-1][0] else None
        tail = exploits[-50:]
        late[kind] = sum(s == best for _, s in tail) / len(tail) if tail else 0.0
    fewest = min(min(choose(history, kind, STRATEGIES, settings).tries.values()) for kind in TRUTH)
    return SeedResult(
        converged_after=converged, late_best_share=late, starved_picks=starved, fewest_tries=fewest
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    settings = ChooserSettings(min_trials=0, phase_length=6, tau=0.5)
    results = [simulate(runs=args.runs, seed=s, settings=settings) for s in range(args.seeds)]
    summary = {}
    for kind in TRUTH:
        runs = [r.converged_after[kind] for r in results]
        done = [r for r in runs if r is not None]
        summary[kind] = {
            "best": best_of(kind),
            "converged_seeds": f"{len(done)}/{len(runs)}",
            "median_run": statistics.median(done) if done else None,
            "max_run": max(done) if done else None,
            "late_best_share": round(statistics.mean(r.late_best_share[kind] for r in results), 3),
        }
    fewest = min(r.fewest_tries for r in results)
    starved = sum(r.starved_picks for r in results)
    out = {
        "runs": args.runs,
        "seeds": args.seeds,
        "settings": settings.model_dump(),
        "kinds": summary,
        "exploration": {"starved_picks": starved, "fewest_tries_at_end": fewest},
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"strategy chooser: {args.runs} runs x {args.seeds} seeds, {len(STRATEGIES)} strategies")
    for kind, row in summary.items():
        print(
            f"  {kind:14} best {row['best']:20} converged {row['converged_seeds']:>6}"
            f"  median run {row['median_run']}  max run {row['max_run']}"
            f"  best in last 50 exploits {row['late_best_share']:.0%}"
        )
    print(
        f"  exploration: {starved} pick(s) outside the least-tried set; "
        f"every strategy of every kind tried at least {fewest} time(s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

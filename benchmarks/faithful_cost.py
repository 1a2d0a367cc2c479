#!/usr/bin/env python3
"""What do the faithfulness checks of #15 add per result? Drafter calls and Lean calls.

    python benchmarks/faithful_cost.py [--json]

Runs the checks of every case in fixtures/faithful/ over its recorded (hand-written) Lean
answers and counts, per result: drafter calls added (the second, independent draft: at most
one), Lean `check` requests and `#print axioms` requests, split by part (equivalence ladder,
counterexample probe of each draft, minimal hypotheses). The budget of the issue: at most one
drafter call per result plus Lean calls. Lean time is not measured: the answers are replayed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from paperlint.lean.replay import ReplayVerifier  # noqa: E402
from paperlint.lean.verifier import AxiomReport, LeanCheck, LeanContext  # noqa: E402
from tests.faithful import build_fixtures as fx  # noqa: E402


class Counting(ReplayVerifier):
    """The replay verifier, counting requests."""

    def __init__(self, folder: Path) -> None:
        super().__init__(folder)
        self.counts: Counter[str] = Counter()

    def check(self, context: LeanContext, candidate: str, *, timeout_s: float) -> LeanCheck:
        self.counts["check"] += 1
        return super().check(context, candidate, timeout_s=timeout_s)

    def print_axioms(
        self, context: LeanContext, names: Sequence[str], *, timeout_s: float
    ) -> AxiomReport:
        self.counts["axioms"] += 1
        return super().print_axioms(context, names, timeout_s=timeout_s)


def measure(name: str) -> dict[str, Any]:
    case = fx.CASES[name]
    verifier = Counting(fx.FOLDER / name)
    evidence = fx.run_case(case, verifier)
    parts = {
        "equivalence": len(evidence.equivalence.attempts()) if evidence.equivalence else 0,
        "probe": len(evidence.probe.attempts) if evidence.probe else 0,
        "probe2": len(evidence.second_probe.attempts) if evidence.second_probe else 0,
        "minimal": sum(1 for c in evidence.minimal.checks if c.attempt) if evidence.minimal else 0,
    }
    return {
        "case": name,
        "drafter_calls_added": 1 if case.second is not None else 0,
        "lean_checks": verifier.counts["check"],
        "lean_axiom_queries": verifier.counts["axioms"],
        "candidates_by_part": parts,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = [measure(name) for name in sorted(fx.CASES)]
    n = len(rows)
    total = {
        "results": n,
        "drafter_calls_added_per_result": sum(r["drafter_calls_added"] for r in rows) / n,
        "lean_requests_per_result": sum(r["lean_checks"] + r["lean_axiom_queries"] for r in rows)
        / n,
    }
    if args.json:
        print(json.dumps({"rows": rows, "total": total}, indent=2))
        return 0
    print(f"{'case':<22} {'drafter+':>8} {'checks':>7} {'axioms':>7}  equiv/probe/probe2/minimal")
    for r in rows:
        p = r["candidates_by_part"]
        print(
            f"{r['case']:<22} {r['drafter_calls_added']:>8} {r['lean_checks']:>7} "
            f"{r['lean_axiom_queries']:>7}  "
            + "/".join(str(p[k]) for k in ("equivalence", "probe", "probe2", "minimal"))
        )
    print(
        f"per result: {total['drafter_calls_added_per_result']:.2f} added drafter calls "
        f"(budget ≤ 1), {total['lean_requests_per_result']:.1f} Lean requests (replayed)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

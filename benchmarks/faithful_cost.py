#!/usr/bin/env python3
"""What do the faithfulness checks of #15 add per result? Drafter calls and Lean calls.

    python benchmarks/faithful_cost.py [--json]

Two measurements, both over REPLAYED, hand-written Lean answers (no Lean time is measured):

- `rows`: the checks of every case in fixtures/faithful/, run alone (outside the engine):
  drafter calls added, Lean `check` and `#print axioms` requests, split by part (equivalence
  ladder, counterexample probe of each draft, minimal hypotheses);
- `engine`: the whole check of fixtures/faithfulness/ through the engine (`check --replay`,
  `[faithfulness] double_draft = true`): drafter calls per verdict-bearing result, first
  drafts and second drafts apart, and the Lean requests the faithfulness checks sent.

The budget of the issue: at most one drafter call per result plus Lean calls.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from paperlint.config import load_config  # noqa: E402
from paperlint.domain import SECOND_DRAFTER  # noqa: E402
from paperlint.engine.check import CheckRequest, start_check  # noqa: E402
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


ENGINE_FIXTURE = ROOT / "fixtures" / "faithfulness"
# The declaration names the faithfulness checks write (paperlint.faithful): how a request is
# told apart from the engine's other Lean requests.
PARTS = {
    "_faithful_fwd": "equivalence",
    "_faithful_bwd": "equivalence",
    "_plausible :": "probe",
    "_refuted :": "probe",
    "_without_": "minimal",
}


class EngineCounting(ReplayVerifier):
    """The replay verifier, counting the faithfulness checks' requests by part."""

    def __init__(self, folder: Path) -> None:
        super().__init__(folder)
        self.counts: Counter[str] = Counter()

    def check(self, context: LeanContext, candidate: str, *, timeout_s: float) -> LeanCheck:
        part = next((p for key, p in PARTS.items() if key in candidate), "other")
        self.counts[part] += 1
        return super().check(context, candidate, timeout_s=timeout_s)


def measure_engine() -> dict[str, Any]:
    """One replayed check of the engine fixture; calls counted from its events."""
    verifier = EngineCounting(ENGINE_FIXTURE / "replay")
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp) / "ws"
        start_check(
            CheckRequest(
                paper=ENGINE_FIXTURE / "paper.tex",
                config=load_config(None, start=ENGINE_FIXTURE).config,
                workdir=workdir,
                replay=ENGINE_FIXTURE / "replay",
                verifier=verifier,
                report=False,
            )
        )
        lines = (workdir / "events.jsonl").read_text(encoding="utf-8").splitlines()
        results = json.loads((workdir / "results.json").read_text(encoding="utf-8"))
    events = [json.loads(line) for line in lines]
    calls = Counter(
        e["task"] for e in events if e.get("type") == "model_call" and e.get("role") == "drafter"
    )
    n = sum(1 for r in results["results"] if r["verdict_bearing"])
    return {
        "fixture": str(ENGINE_FIXTURE.relative_to(ROOT)),
        "replay": True,
        "results": n,
        "first_drafter_calls": calls["drafter"],
        "second_drafter_calls": calls[SECOND_DRAFTER],
        "drafter_calls_added_per_result": calls[SECOND_DRAFTER] / n,
        "faithfulness_lean_checks": {k: verifier.counts[k] for k in sorted(set(PARTS.values()))},
        "faithfulness_lean_checks_per_result": sum(verifier.counts[k] for k in set(PARTS.values()))
        / n,
        "other_lean_checks": verifier.counts["other"],
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
    engine = measure_engine()
    if args.json:
        print(json.dumps({"rows": rows, "total": total, "engine": engine}, indent=2))
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
    print(
        f"engine ({engine['fixture']}, replay): {engine['results']} results, "
        f"{engine['first_drafter_calls']} first drafts, {engine['second_drafter_calls']} second "
        f"drafts: {engine['drafter_calls_added_per_result']:.2f} added drafter calls per result "
        f"(budget ≤ 1); faithfulness Lean checks {engine['faithfulness_lean_checks']} = "
        f"{engine['faithfulness_lean_checks_per_result']:.1f} per result (replayed)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

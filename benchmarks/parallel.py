#!/usr/bin/env python3
"""How much faster is a check with `--jobs N`? Wall time on a synthetic paper (issue #14).

    python benchmarks/parallel.py [--results 60] [--model-s 0.2] [--lean-s 0.1]
                                  [--jobs 1,2,4,8] [--ray] [--json]

The paper is made on the fly: RESULTS lemmas in chains of three (each lemma after the first
of its chain cites the one before, so a third of them wait for a predecessor), each with a
hand-written transcript (architect, drafter, gate, prover, auditor answers) and Lean answers
written by `scripts/author_lean_replay.py`'s rules. Every model answer then carries
`latency_s = MODEL_S` and every Lean answer `latency_s = LEAN_S`, which the replays sleep
before answering: most of a real check's time is this waiting (a model's seconds, Lean's
seconds), and that is what parallel actions overlap. The numbers are scaled down from real
latencies (tens of seconds) so the benchmark runs in a minute; the ratio is what counts.

For each N it runs the check from scratch and prints the wall time and the ratio to N = 1,
and checks that every N wrote the same `results.json` (byte for byte). `--ray` also runs
`--executor ray` on a local Ray cluster (`ray.init()` here) at the largest N and reports its
overhead against threads. The issue's target: `--jobs 4` at most 0.35 of `--jobs 1`.

Measured on the shared 2-core, 24 GB development machine (other jobs running), 2026-12-01:

    executor  jobs   wall s  ratio  results.json
    threads      1   164.15  1.000  identical
    threads      2    81.57  0.497  identical
    threads      4    53.28  0.325  identical
    threads      8    34.50  0.210  identical
    ray          4   205.73  3.968 of threads at 4 (local cluster, ray 2.60), identical
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from paperlint.config import Config  # noqa: E402
from paperlint.engine.check import CheckRequest, start_check  # noqa: E402
from paperlint.engine.executors import RunOptions  # noqa: E402

CHAIN = 3


def label(i: int) -> str:
    return f"lem:s{i}"


def name(i: int) -> str:
    return f"lem_s{i}"


def statement(i: int) -> str:
    return f"theorem {name(i)} (x : ℝ) : x + {i} = {i} + x"


def paper_tex(n: int) -> str:
    parts = [
        "\\documentclass{article}",
        "\\usepackage{amsmath,amssymb,amsthm}",
        "\\newtheorem{lemma}{Lemma}",
        "\\begin{document}",
        "A synthetic paper for benchmarks/parallel.py: every lemma is a commutation identity.",
    ]
    for i in range(1, n + 1):
        cite = f" As in Lemma~\\ref{{{label(i - 1)}}}," if i % CHAIN != 1 else ""
        parts += [
            f"\\begin{{lemma}}\\label{{{label(i)}}}",
            f"For every real $x$, $x + {i} = {i} + x$.",
            "\\end{lemma}",
            "\\begin{proof}",
            f"{cite} addition of real numbers is commutative.",
            "\\end{proof}",
        ]
    parts.append("\\end{document}")
    return "\n".join(parts) + "\n"


def transcript(n: int) -> Any:
    from fixture_author import Transcript, audit_pass, fidelity, gate_pass

    t = Transcript()
    for i in range(1, n + 1):
        r = label(i)
        uses = [label(i - 1)] if i % CHAIN != 1 else []
        t.add(
            "architect",
            "architect",
            r,
            {
                "steps": [
                    {
                        "id": "s1",
                        "text": "addition is commutative",
                        "justification": "add_comm",
                        "uses": uses,
                        "citations": [],
                    }
                ],
                "cited_inputs": [],
                "asserted_facts": [],
            },
        )
        t.add(
            "drafter",
            "drafter",
            r,
            {
                "lean_name": name(i),
                "statement": statement(i) + " := by\n  sorry",
                "definitions": [],
                "fidelity": fidelity(
                    object_class="a real number x",
                    quantifier_order="for every x",
                    parameter_domains="x ∈ ℝ",
                    codomain="ℝ",
                    hypotheses="none",
                    conclusion=f"x + {i} = {i} + x",
                ),
                "conditions": [],
                "obligations": [],
                "ambiguity": None,
            },
        )
        t.add("gate", "gate", r, gate_pass())
        t.add(
            "prover",
            "prover",
            r,
            {"lean": statement(i) + " := by\n  ring", "notes": "commutativity"},
            obligation="main",
        )
        t.add("auditor", "auditor", r, audit_pass("add_comm, as the paper says"))
    return t


def make_paper(folder: Path, n: int, *, model_s: float, lean_s: float) -> tuple[Path, Path]:
    """Write `paper.tex` and `replay/` (transcript, Lean answers, latencies) into `folder`."""
    from author_lean_replay import AuthoringVerifier

    folder.mkdir(parents=True, exist_ok=True)
    paper = folder / "paper.tex"
    paper.write_text(paper_tex(n), encoding="utf-8")
    replay = folder / "replay"
    replay.mkdir(exist_ok=True)
    transcript(n).write(replay / "transcript.jsonl")
    verifier = AuthoringVerifier(replay / "lean.jsonl", {})
    with tempfile.TemporaryDirectory() as tmp:
        start_check(
            CheckRequest(
                paper=paper,
                config=Config(),
                workdir=Path(tmp) / "ws",
                replay=replay,
                verifier=verifier,
                report=False,
            )
        )
    _add_latency(replay / "transcript.jsonl", model_s)
    _add_latency(replay / "lean.jsonl", lean_s)
    return paper, replay


def _add_latency(path: Path, seconds: float) -> None:
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        if entry.get("kind") != "comment":
            entry["latency_s"] = seconds
        lines.append(json.dumps(entry, ensure_ascii=False))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def timed_check(paper: Path, replay: Path, workdir: Path, run: RunOptions) -> tuple[float, str]:
    start = time.perf_counter()
    start_check(
        CheckRequest(
            paper=paper, config=Config(), workdir=workdir, replay=replay, report=False, run=run
        )
    )
    return time.perf_counter() - start, (workdir / "results.json").read_text(encoding="utf-8")


def bench(n: int, jobs: list[int], *, model_s: float, lean_s: float, ray: bool) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        paper, replay = make_paper(root / "paper", n, model_s=model_s, lean_s=lean_s)
        rows: list[dict[str, Any]] = []
        reference: str | None = None
        for count in jobs:
            wall, text = timed_check(paper, replay, root / f"ws-{count}", RunOptions(jobs=count))
            reference = reference if reference is not None else text
            rows.append(
                {"executor": "threads", "jobs": count, "wall_s": wall, "same": text == reference}
            )
        if ray:
            count = max(jobs)
            wall, text = timed_check(
                paper, replay, root / "ws-ray", RunOptions(jobs=count, executor="ray")
            )
            rows.append(
                {"executor": "ray", "jobs": count, "wall_s": wall, "same": text == reference}
            )
        verdicts = json.loads(reference or "{}").get("results", [])
    base = rows[0]["wall_s"]
    for row in rows:
        row["ratio"] = row["wall_s"] / base
    return {
        "results": n,
        "model_s": model_s,
        "lean_s": lean_s,
        "verified": sum(1 for r in verdicts if r.get("verdict") == "verified_unconditional"),
        "runs": rows,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=60)
    parser.add_argument("--model-s", type=float, default=0.2)
    parser.add_argument("--lean-s", type=float, default=0.1)
    parser.add_argument("--jobs", default="1,2,4,8")
    parser.add_argument("--ray", action="store_true", help="also run --executor ray")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    jobs = [int(j) for j in args.jobs.split(",")]
    report = bench(args.results, jobs, model_s=args.model_s, lean_s=args.lean_s, ray=args.ray)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(
            f"{report['results']} results ({report['verified']} verified), "
            f"model {report['model_s']} s, Lean {report['lean_s']} s per answer"
        )
        print(f"{'executor':<9} {'jobs':>4} {'wall s':>8} {'ratio':>6}  results.json")
        for row in report["runs"]:
            same = "identical" if row["same"] else "DIFFERS"
            print(
                f"{row['executor']:<9} {row['jobs']:>4} {row['wall_s']:>8.2f} "
                f"{row['ratio']:>6.3f}  {same}"
            )
    ok = all(row["same"] for row in report["runs"])
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())

#!/usr/bin/env python3
"""How much faster is a check with `--jobs N`? Wall time on a synthetic paper (issue #14).

    python benchmarks/parallel.py [--results 60] [--model-s 0.2] [--lean-s 0.1]
                                  [--jobs 1,2,4,8] [--ray [--prestarted]] [--repeats K] [--json]

The paper is made on the fly: RESULTS lemmas in chains of three (each lemma after the first
of its chain cites the one before, so a third of them wait for a predecessor), each with a
hand-written transcript (architect, drafter, gate, prover, auditor answers) and Lean answers
written by `scripts/author_lean_replay.py`'s rules. Every model answer then carries
`latency_s = MODEL_S` and every Lean answer `latency_s = LEAN_S`, which the replays sleep
before answering: most of a real check's time is this waiting (a model's seconds, Lean's
seconds), and that is what parallel actions overlap. The numbers are scaled down from real
latencies (tens of seconds) so the benchmark runs in a minute; the ratio is what counts.

Every check runs in a cold process of its own (`--child`), as the CLI would: threads at each N;
with `--ray`, `--executor ray` at the largest N starting its own local cluster; with
`--prestarted` also joining a cluster started beforehand (`ray start --head`, in a temporary
folder of its own, stopped by its process group at the end). The configurations run interleaved,
`--repeats` rounds. Each row gives the whole process's wall time, its imports, the check itself,
the span of its actions (first start to last end) and the sum of the actions' own seconds (where
two executors' sums agree, they ran the actions equally fast and their difference lies outside
the actions), the load average, whether `results.json` is byte for byte the first run's, and for
Ray how many actions ran on actors (the rest ran on the driver while they started; how many of
them an actor went on to from the action before, in the same call) and each
actor's first-task cost: start (the driver's request to its constructor), imports, opening the
run (ahead of its first action), first action; an actor kept from an earlier run shows
kept+opening+first action. The summary gives medians and ratios. The issue's targets (#30): Ray
at 4 jobs at most 1.2 x threads at 4 from cold, at most 1.0 x on a pre-started cluster; (#14)
threads at 4 jobs at most 0.35 of 1 job.

With `--prestarted`, the cluster's first run starts the action actors it keeps (on a running
cluster they outlive the driver: docs/ray.md); that run is printed on its own row and left out
of the medians, and the timed runs on that cluster take the kept actors.

Measured on the 2-core development machine, ray 2.60, `--results 60 --jobs 4 --ray
--prestarted`. Each check's process now leaves as the console script does after every
command, without the interpreter's teardown (docs/ray.md "Leaving"): from the end of the
check to the end of the process, 0.199 -> 0.049 s on the running cluster, 0.120 -> 0.045 s
with threads (5 processes each, medians). 5 rounds, 2026-12-04 21:30-21:41 (load 0.0-0.6):

    executor jobs cluster   median wall s  of threads  span s  sum s  outside s
    threads     4             34.77        1.000      34.30  135.8   0.47
    ray         4 started     36.38        1.046      34.64  136.5   1.61
    ray         4 running     34.64        0.996      34.10  134.5   0.51

    Round by round, Ray on the running cluster was 0.989-1.000 x the threads of its round
    (0.997, 1.000, 0.989, 0.996, 0.997); 2 rounds at 21:20, before the exit changed, gave a
    median of 0.997. Again at 22:20-22:31 (5 rounds, load 0.1-1.5, after `plan`'s scan of
    settled results got cheaper): threads 34.81 s, Ray on the running cluster 34.68 s = 0.996 x
    (rounds 0.987, 0.996, 0.996, 0.989, 0.999), from cold 36.38 s = 1.045 x. A third time at
    22:51-23:01: threads 34.77 s, running cluster 34.65 s = 0.996 x (rounds 0.995, 0.997,
    0.996, 1.010 at load 0.9, 0.995), from cold 1.041 x.
    Where the difference lies: the replays' latencies sum to 132.0 s (counted); an action
    costs about 14 ms above them either way (an actor's own clock: 0.454 s an action; the
    `sum` column of Ray is lower only because the driver stamps a chained action's start and
    end as it commits them). Ray gains its span (34.10 vs 34.30 s) by not going through the
    driver between a result's steps (threads wait ~3 ms for the commit and the planning each
    time); outside the actions it is level with threads (0.51 vs 0.47 s). The margin is small:
    0.4 % of the wall time, and round to round the ratio moves by about as much. From cold,
    1.046 x (the first actions wait for 4 actor processes to start on 2 cores).
    Earlier on 2026-12-04 (16:25-17:27, 13 rounds, the process's teardown still in the
    wall time): on the running cluster 0.999, 1.002 and 1.013 x; before a result's chain of
    steps ran in one call (00:49, 01:50), 1.016 and 1.020 x. Runs on a loaded machine (load
    4-18) moved by +-15 %, more than the difference measured.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path
from typing import Any

STARTED = time.perf_counter()
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


# --- one check in a cold process ------------------------------------------------------------


def child(args: argparse.Namespace) -> int:
    """`--child`: one check from this cold process, as the CLI runs it (with Ray: the cluster
    started, or joined, and left inside); prints what it measured as one JSON line."""
    import logging

    costs: list[Any] = []
    ran: dict[str, int] = {}

    class Costs(logging.Handler):
        """What `RayRunner.close` logs: where the actions ran, what each actor cost."""

        def emit(self, record: logging.LogRecord) -> None:
            if isinstance(record.args, tuple) and len(record.args) == 2:
                ran.update(record.args[0])
                costs.extend(record.args[1])

    ray_log = logging.getLogger("paperlint.engine.ray_executor")
    ray_log.setLevel(logging.INFO)
    ray_log.addHandler(Costs())
    ray_log.propagate = False
    run = RunOptions(jobs=args.jobs, executor=args.executor, address=args.address)
    imports = time.perf_counter() - STARTED
    wall, text = timed_check(args.paper, args.replay, args.workdir, run)
    span_s, action_s = action_times(args.workdir / "events.jsonl")
    print(
        json.dumps(
            {
                "imports_s": imports,
                "check_s": wall,
                "span_s": span_s,
                "action_s": action_s,
                "actors": costs,
                "ran": ran,
                "results": text,
            }
        )
    )
    return 0


def action_times(events: Path) -> tuple[float, float]:
    """From the run's `events.jsonl`: seconds from the first action's start to the last one's
    end, and the sum of every action's own seconds (its `action_started` to its
    `action_finished` line). The sum is the same whichever executor ran the actions when
    they cost the same; what a check spends outside the span is joining, opening and leaving."""
    from datetime import datetime

    started: dict[tuple[Any, ...], float] = {}
    first = last = None
    total = 0.0
    for line in events.read_text(encoding="utf-8").splitlines():
        event = json.loads(line)
        action = event.get("action")
        if event.get("type") not in ("action_started", "action_finished") or not action:
            continue
        at = datetime.fromisoformat(event["ts"]).timestamp()
        key = tuple(action.get(k) for k in ("kind", "result", "obligation", "attempt", "model"))
        if event["type"] == "action_started":
            started[key] = at
            first = at if first is None else first
        elif key in started:
            total += at - started.pop(key)
            last = at
    return (last - first if first is not None and last is not None else 0.0), total


def cold_run(
    paper: Path, replay: Path, workdir: Path, *, executor: str, jobs: int, address: str | None
) -> dict[str, Any]:
    """One check in a fresh interpreter: its whole wall time (start-up and exit included) and
    what it measured inside."""
    argv = [
        *(sys.executable, str(Path(__file__).resolve()), "--child"),
        *("--paper", str(paper), "--replay", str(replay), "--workdir", str(workdir)),
        *("--executor", executor, "--jobs", str(jobs)),
        *(["--address", address] if address else []),
    ]
    start = time.perf_counter()
    # Ray's own clusters use token authentication (the token in ~/.ray/auth_token); a driver
    # joining one at an explicit address must be told to send it.
    env = {**os.environ, "RAY_AUTH_MODE": "token"} if address else None
    done = subprocess.run(argv, capture_output=True, text=True, check=False, env=env)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{executor} --jobs {jobs} failed:\n{done.stderr[-4000:]}")
    inside = json.loads(done.stdout.strip().splitlines()[-1])
    return {"executor": executor, "jobs": jobs, "wall_s": wall, **inside}


@contextmanager
def prestarted_cluster() -> Iterator[str]:
    """A Ray head started here (`ray start --head --block`) for the runs that join it with
    `--address`; stopped by its own process group at the end (never `ray stop`, which stops
    every Ray cluster of this user on the machine, other people's included)."""
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    ray_cli = Path(sys.executable).with_name("ray")
    # Its own temporary folder: `ray start` writes its address to `<temp>/ray_current_cluster`,
    # which in the shared /tmp/ray would send every `ray.init()` on the machine to this head.
    temp = tempfile.mkdtemp(prefix="plray-", dir="/tmp")  # short: Ray's socket paths
    head = subprocess.Popen(
        [
            *(str(ray_cli), "start", "--head", "--block", "--disable-usage-stats"),
            *("--include-dashboard=false", f"--port={port}", f"--temp-dir={temp}"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    from ray.util import get_node_ip_address

    host = get_node_ip_address()  # where the head's GCS says it is
    address = f"{host}:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                socket.create_connection((host, port), timeout=1).close()
                break
            except OSError:
                if head.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("the Ray head did not start") from None
                time.sleep(0.2)
        yield address
    finally:
        # The head and every process it started are in the session started for it: its
        # process group, stopped by that id (SIGTERM, then SIGKILL after a grace).
        os.killpg(head.pid, signal.SIGTERM)
        with suppress(subprocess.TimeoutExpired):
            head.wait(timeout=15)
        with suppress(ProcessLookupError):
            os.killpg(head.pid, signal.SIGKILL)
        head.wait()
        shutil.rmtree(temp, ignore_errors=True)


def bench(
    n: int,
    jobs: list[int],
    *,
    model_s: float,
    lean_s: float,
    ray: bool,
    prestarted: bool = False,
    repeats: int = 1,
) -> dict[str, Any]:
    """Every configuration from a cold process, interleaved (threads at each N, then Ray at the
    largest N from cold, then Ray joining a running cluster), `repeats` rounds."""
    top = max(jobs)
    modes: list[tuple[str, int, bool]] = [("threads", count, False) for count in jobs]
    if ray:
        modes.append(("ray", top, False))
    if ray and prestarted:
        modes.append(("ray", top, True))
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        root = Path(tmp)
        paper, replay = make_paper(root / "paper", n, model_s=model_s, lean_s=lean_s)
        address = stack.enter_context(prestarted_cluster()) if ray and prestarted else None
        runs: list[dict[str, Any]] = []
        if address is not None:
            # the cluster's first run starts the actors it keeps for the runs after it
            first = cold_run(
                paper, replay, root / "ws-first", executor="ray", jobs=top, address=address
            )
            runs.append(first | {"cluster": "first", "load": os.getloadavg()[0]})
        for round_ in range(repeats):
            for i, (executor, count, joined) in enumerate(modes):
                row = cold_run(
                    paper,
                    replay,
                    root / f"ws-{round_}-{i}",
                    executor=executor,
                    jobs=count,
                    address=address if joined else None,
                )
                row["cluster"] = "running" if joined else ("started" if executor == "ray" else "")
                row["load"] = os.getloadavg()[0]
                runs.append(row)
    reference = next(r["results"] for r in runs if r["executor"] == "threads")
    for row in runs:
        row["same"] = row.pop("results") == reference
    verdicts = json.loads(reference).get("results", [])
    return {
        "results": n,
        "model_s": model_s,
        "lean_s": lean_s,
        "verified": sum(1 for r in verdicts if r.get("verdict") == "verified_unconditional"),
        "runs": runs,
        "summary": summary(runs, modes, top),
    }


def summary(runs: list[dict[str, Any]], modes: list[tuple[str, int, bool]], top: int) -> list:
    """Per configuration: the median whole-process wall time, and the ratio to threads at the
    largest N (and to threads at one job); beside it the median span of the actions, the sum
    of their own seconds and the time outside the span (start-up, joining, leaving)."""
    rows = []

    def key(row: dict[str, Any]) -> tuple[str, int, str]:
        return (row["executor"], row["jobs"], row["cluster"])

    medians = {}
    for executor, count, joined in modes:
        k = (executor, count, "running" if joined else ("started" if executor == "ray" else ""))
        mine = [r for r in runs if key(r) == k]
        walls = [r["wall_s"] for r in mine]
        medians[k] = statistics.median(walls)
        rows.append(
            {
                "executor": executor,
                "jobs": count,
                "cluster": k[2],
                "walls": walls,
                "span_s": statistics.median(r["span_s"] for r in mine),
                "action_s": statistics.median(r["action_s"] for r in mine),
                "outside_s": statistics.median(r["wall_s"] - r["span_s"] for r in mine),
            }
        )
    threads_top = medians[("threads", top, "")]
    threads_one = medians.get(("threads", 1, ""), threads_top)
    for row in rows:
        med = medians[(row["executor"], row["jobs"], row["cluster"])]
        row |= {
            "median_s": med,
            "of_threads_top": med / threads_top,
            "of_one_job": med / threads_one,
        }
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=60)
    parser.add_argument("--model-s", type=float, default=0.2)
    parser.add_argument("--lean-s", type=float, default=0.1)
    parser.add_argument("--jobs", default="1,2,4,8")
    parser.add_argument("--ray", action="store_true", help="also run --executor ray from cold")
    parser.add_argument(
        "--prestarted", action="store_true", help="and on a Ray cluster started beforehand"
    )
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--paper", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--replay", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--workdir", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--executor", default="threads", help=argparse.SUPPRESS)
    parser.add_argument("--address", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        args.jobs = int(args.jobs)
        return child(args)
    jobs = [int(j) for j in args.jobs.split(",")]
    report = bench(
        args.results,
        jobs,
        model_s=args.model_s,
        lean_s=args.lean_s,
        ray=args.ray,
        prestarted=args.prestarted,
        repeats=args.repeats,
    )
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(render(report))
    ok = all(row["same"] for row in report["runs"])
    return 0 if ok else 1


def render(report: dict[str, Any]) -> str:
    lines = [
        f"{report['results']} results ({report['verified']} verified), "
        f"model {report['model_s']} s, Lean {report['lean_s']} s per answer; "
        "every run a cold process, in this order:",
        f"{'executor':<8} {'jobs':>4} {'cluster':<8} {'wall s':>7} {'import s':>8} "
        f"{'check s':>7} {'span s':>6} {'sum s':>6} {'load':>5}  results.json  "
        "actions on actors; per actor: start+import+open+first action s",
    ]
    for row in report["runs"]:
        same = "identical" if row["same"] else "DIFFERS  "
        where = row["ran"]
        on = (
            f"{where['actor']}/{where['actor'] + where['driver']} on actors "
            f"({where.get('chained', 0)} went on from the one before); "
            if where
            else ""
        )
        firsts = on + " ".join(_actor_cost(a) for a in row["actors"])
        lines.append(
            f"{row['executor']:<8} {row['jobs']:>4} {row['cluster']:<8} {row['wall_s']:>7.2f} "
            f"{row['imports_s']:>8.2f} {row['check_s']:>7.2f} "
            f"{row['span_s']:>6.2f} {row['action_s']:>6.1f} "
            f"{row['load']:>5.2f}  {same:<12}  {firsts}"
        )
    lines.append("median whole-process wall time:")
    for row in report["summary"]:
        lines.append(
            f"{row['executor']:<8} {row['jobs']:>4} {row['cluster']:<8} {row['median_s']:>7.2f} "
            f"{row['of_threads_top']:.3f} of threads at the largest N, "
            f"{row['of_one_job']:.3f} of one job; actions: span {row['span_s']:.2f} s, "
            f"sum {row['action_s']:.1f} s; outside them {row['outside_s']:.2f} s"
        )
    return "\n".join(lines)


def _actor_cost(actor: dict[str, Any]) -> str:
    """start+import+opening the run+first action, or for an actor kept from an earlier run
    kept+opening+first action."""
    opened = actor.get("open_s") or [0.0]
    tail = f"{opened[-1]:.2f}+{actor.get('first_action_s') or 0:.2f}"
    if actor.get("leases", 0) > 1:
        return f"kept+{tail}"
    return "+".join(f"{actor.get(k) or 0:.2f}" for k in ("start_s", "import_s")) + "+" + tail


if __name__ == "__main__":
    from paperlint.cli.boundary import exit_with

    # as the console script leaves after every command (the child's whole-process time is
    # the CLI's): without the interpreter's teardown
    exit_with(main(), finished=True)

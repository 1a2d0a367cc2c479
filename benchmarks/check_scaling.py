#!/usr/bin/env python3
"""Does a replayed check grow linearly with the number of results? (issue #30)

    python benchmarks/check_scaling.py [--sizes 15,60,120,240,480] [--runs 1] [--json]

For each size N it makes `benchmarks/parallel.py`'s synthetic paper (N lemmas in chains of
three, a hand-written transcript and Lean answers, no injected latency), then times a
replayed check (`paperlint check PAPER --replay DIR` less the report) as a whole process
(start-up, imports and every fsync included) from a fresh workspace, and prints the wall and
CPU seconds, the milliseconds per result, the peak memory of the process and the growth
exponent between successive sizes
(log(t2/t1) / log(n2/n1) of the wall time: 1.0 is linear; on a shared machine the CPU column
is the steadier one). It also prints whether the process imported litellm
(it must not: a replay asks no model). The authored replays are cached under
`$XDG_CACHE_HOME/paperlint/bench-scaling/` (they are the same for every run of a size).

The issue's targets: exponent <= 1.15 from 60 to 480 results, and 240 results at least 4 x
faster than before the incremental commits (85 s on the shared 2-core machine).

Measured on the 2-core development machine, 2026-12-04 22:15-22:45, one run a size:

    results        60     120     240     480    exponent 60 -> 480
    before: wall  3.47    6.44   14.70   37.57   1.15
            cpu   2.21    4.49   10.79   27.18   1.21
    after:  wall  3.72    7.27   14.74   32.65   1.05
            cpu   2.35    5.05   11.17   23.63   1.11
    again:  wall  3.10    6.22   12.56   29.80   1.09   (memo held weakly since)
            cpu   2.07    4.26    9.01   21.22   1.12
    again:  wall  3.53    6.27   13.47   31.65   1.05
            cpu   2.57    4.62   10.10   22.74   1.05

"after": `plan` no longer reads every settled result's clause conditions anew for every
action it plans (`reconnect._clauses`, kept per work object); at 480 results its scans took
3.8 s of the check, 1.3 s after. What still grows faster than the results is the commit:
each writes `results.json` and the engine state whole (~1.2 KB a result each: at 480
results the check writes 1.0 GB of `results.json` and 1.2 GB of state, 7.5 s with their
fsyncs, against 2.5 s at 240).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

# One replayed check, as `paperlint check PAPER --replay DIR` runs it less the report; then
# whether litellm was ever imported.
PROBE = """
import sys
from pathlib import Path
from paperlint.config import Config
from paperlint.engine.check import CheckRequest, start_check
paper, replay, workdir = map(Path, sys.argv[1:4])
request = CheckRequest(paper=paper, config=Config(), workdir=workdir, replay=replay, report=False)
start_check(request)
print("LITELLM", "litellm" in sys.modules, file=sys.stderr)
"""


def cache_dir() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "paperlint" / "bench-scaling"


def authored(n: int) -> tuple[Path, Path]:
    """The paper and replay folder for N results, authored once and cached."""
    folder = cache_dir() / f"n{n}"
    paper, replay = folder / "paper.tex", folder / "replay"
    if (replay / "lean.jsonl").is_file() and (folder / "done").is_file():
        return paper, replay
    from parallel import make_paper

    make_paper(folder, n, model_s=0.0, lean_s=0.0)
    (folder / "done").write_text("", encoding="utf-8")
    return paper, replay


def timed(paper: Path, replay: Path, workdir: Path) -> dict[str, Any]:
    command = [
        sys.executable,
        "-c",
        PROBE,
        str(paper),
        str(replay),
        str(workdir),
    ]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    if done.returncode not in (0, 1, 4):
        raise SystemExit(f"the check failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return {
        "wall_s": wall,
        "cpu_s": cpu,
        "peak_mib": after.ru_maxrss / 1024,
        "litellm": "LITELLM True" in done.stderr,
        "results_json": (workdir / "results.json").read_text(encoding="utf-8"),
    }


def bench(sizes: list[int], runs: int) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for n in sizes:
        paper, replay = authored(n)
        walls, cpus, peak, litellm = [], [], 0.0, False
        for _ in range(runs):
            with tempfile.TemporaryDirectory() as tmp:
                got = timed(paper, replay, Path(tmp) / "ws")
            walls.append(got["wall_s"])
            cpus.append(got["cpu_s"])
            peak = max(peak, got["peak_mib"])
            litellm = litellm or got["litellm"]
            verdicts = json.loads(got["results_json"])["results"]
        wall = sorted(walls)[len(walls) // 2]
        rows.append(
            {
                "results": n,
                "wall_s": wall,
                "cpu_s": sorted(cpus)[len(cpus) // 2],
                "per_result_ms": 1000 * wall / n,
                "peak_mib": peak,
                "litellm_imported": litellm,
                "verified": sum(r.get("verdict") == "verified_unconditional" for r in verdicts),
            }
        )
    for prev, row in zip(rows, rows[1:], strict=False):
        row["exponent"] = math.log(row["wall_s"] / prev["wall_s"]) / math.log(
            row["results"] / prev["results"]
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="15,60,120,240,480")
    parser.add_argument("--runs", type=int, default=1, help="runs per size (the median is kept)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    rows = bench(sizes, args.runs)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    where = os.environ.get("TMPDIR") or tempfile.gettempdir()
    print(f"workspaces under {where} (fsyncs cost what that file system makes them cost)")
    print(
        f"{'results':>7} {'wall s':>8} {'cpu s':>7} {'ms/result':>9} {'peak MiB':>8} {'exp':>5}"
        "  litellm"
    )
    for row in rows:
        exp = f"{row['exponent']:5.2f}" if "exponent" in row else "    -"
        print(
            f"{row['results']:>7} {row['wall_s']:>8.2f} {row['cpu_s']:>7.2f} "
            f"{row['per_result_ms']:>9.1f} "
            f"{row['peak_mib']:>8.0f} {exp}  {'imported' if row['litellm_imported'] else 'no'}"
        )
    if len(rows) > 1 and rows[0]["results"] < rows[-1]["results"]:
        first = next((r for r in rows if r["results"] >= 60), rows[0])
        last = rows[-1]
        span = math.log(last["results"] / first["results"])
        wall = math.log(last["wall_s"] / first["wall_s"]) / span
        cpu = math.log(last["cpu_s"] / first["cpu_s"]) / span
        print(f"exponent {first['results']} -> {last['results']}: wall {wall:.2f}, cpu {cpu:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

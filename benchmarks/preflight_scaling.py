#!/usr/bin/env python3
"""Does preflight stay linear? Time and peak memory on synthetic papers of growing size.

    python benchmarks/preflight_scaling.py [--sizes 100 1000 5000]

Each paper has sections of ten results on shared counters (theorem, lemma, corollary within
section; definitions on their own counter), a label on every result, references to earlier
results, numbered equations and a proof after each theorem-like result. Each size runs in a
fresh subprocess; its peak memory is `getrusage(RUSAGE_CHILDREN).ru_maxrss`, read by a small
intermediate process that has no other child, so sizes do not mask one another.
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PREAMBLE = r"""\documentclass{article}
\usepackage{amsmath,amssymb,amsthm}
\newcommand{\E}{\mathbb{E}}
\newtheorem{theorem}{Theorem}[section]
\newtheorem{lemma}[theorem]{Lemma}
\newtheorem{corollary}[theorem]{Corollary}
\theoremstyle{definition}
\newtheorem{definition}{Definition}[section]
\numberwithin{equation}{section}
\begin{document}
"""
KINDS = ("theorem", "lemma", "lemma", "corollary", "definition")


def result_block(i: int) -> str:
    env = KINDS[i % len(KINDS)]
    ref = f" By Lemma~\\ref{{r{i - 1}}} and \\eqref{{e{i - 1}}}," if i else ""
    body = (
        f"\\begin{{{env}}}[Note {i}]\\label{{r{i}}}\n"
        f"Let $X_{{{i}}}$ be integrable.{ref} then\n"
        f"\\begin{{equation}}\\label{{e{i}}} \\E[X_{{{i}}}] \\le {i} \\end{{equation}}\n"
        f"\\end{{{env}}}\n"
    )
    if env != "definition":
        body += f"\\begin{{proof}}\nFollows from \\ref{{r{max(i - 1, 0)}}}.\n\\end{{proof}}\n"
    return body


def synthetic_paper(results: int) -> str:
    parts = [PREAMBLE]
    for i in range(results):
        if i % 10 == 0:
            parts.append(f"\\section{{Part {i // 10 + 1}}}\\label{{s{i // 10}}}\n")
        parts.append(result_block(i))
    parts.append("\\end{document}\n")
    return "".join(parts)


def run_child(size: int, folder: Path) -> None:
    """Build the inventory once and print how long it took (imports excluded)."""
    from paperlint.preflight.inventory import build_inventory

    start = time.perf_counter()
    count = len(build_inventory(folder, root="main.tex").results) if size else 0
    print(json.dumps({"seconds": time.perf_counter() - start, "results": count}))


def run_measure(size: int, folder: Path) -> None:
    """Run one child and report its output plus its peak resident memory."""
    me = [sys.executable, __file__, "--child", str(size), str(folder)]
    out = subprocess.run(me, capture_output=True, text=True, check=False)
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    record = json.loads(out.stdout) if out.returncode == 0 else {"error": out.stderr[-500:]}
    print(json.dumps({**record, "peak_mib": peak_kib / 1024}))


def measure(size: int, *, latex_time: bool = False) -> dict[str, float | str]:
    with tempfile.TemporaryDirectory(prefix="paperlint-scale-") as tmp:
        folder = Path(tmp)
        (folder / "main.tex").write_text(synthetic_paper(size), encoding="utf-8")
        me = [sys.executable, __file__, "--measure", str(size), str(folder)]
        out = subprocess.run(me, capture_output=True, text=True, check=True)
        record: dict[str, float | str] = json.loads(out.stdout)
        record["size_kib"] = (folder / "main.tex").stat().st_size / 1024
        if latex_time and size:
            from paperlint.preflight.latexrun import compile_project

            record["latexmk_s"] = compile_project(folder, "main.tex", timeout=600).seconds
    return record


def exponent(n1: int, t1: float, n2: int, t2: float) -> float:
    """The k in t ∝ n^k between two sizes; 1 is linear."""
    return math.log(t2 / t1) / math.log(n2 / n1) if t1 > 0 and t2 > 0 else float("nan")


def report(sizes: list[int], *, latex_time: bool = False) -> None:
    base = measure(0)
    print(f"baseline (python + imports, no paper): peak {float(base['peak_mib']):.1f} MiB")
    print(
        f"{'results':>8} {'found':>6} {'tex KiB':>8} {'time s':>8} {'ms/result':>9} "
        f"{'peak MiB':>9} {'exponent':>8} {'latexmk s':>9}"
    )
    previous: tuple[int, float] | None = None
    last = float("nan")
    for size in sizes:
        rec = measure(size, latex_time=latex_time)
        if "error" in rec:
            print(f"{size:>8} failed: {rec['error']}")
            continue
        seconds = float(rec["seconds"])
        k = exponent(*previous, size, seconds) if previous else float("nan")
        print(
            f"{size:>8} {int(rec['results']):>6} {float(rec['size_kib']):>8.0f} {seconds:>8.3f} "
            f"{1000 * seconds / size:>9.3f} {float(rec['peak_mib']):>9.1f} {k:>8.2f} "
            f"{float(rec.get('latexmk_s', 'nan')):>9.2f}"
        )
        previous = (size, seconds)
        last = k
    if not math.isnan(last):
        # judged on the two largest sizes: small runs take milliseconds and are mostly noise
        verdict = "linear" if last <= 1.25 else "NOT linear"
        print(f"growth: {verdict} (exponent {last:.2f} between the two largest sizes)")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="preflight time and memory vs paper size")
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 5000])
    parser.add_argument("--latex-time", action="store_true", help="also time one latexmk run")
    parser.add_argument("--child", nargs=2, metavar=("N", "DIR"), help=argparse.SUPPRESS)
    parser.add_argument("--measure", nargs=2, metavar=("N", "DIR"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        run_child(int(args.child[0]), Path(args.child[1]))
    elif args.measure:
        run_measure(int(args.measure[0]), Path(args.measure[1]))
    else:
        report(args.sizes, latex_time=args.latex_time and shutil.which("latexmk") is not None)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

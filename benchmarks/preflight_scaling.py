#!/usr/bin/env python3
"""Does preflight stay linear? Time and peak memory on synthetic papers of growing size.

    python benchmarks/preflight_scaling.py [--sizes 100 1000 5000] [--breakdown] [--contract]

Each paper has sections of ten results on shared counters (theorem, lemma, corollary within
section; definitions on their own counter), a label on every result, references to earlier
results, numbered equations and a proof after each theorem-like result. Each size runs in a
fresh subprocess; its peak memory is `getrusage(RUSAGE_CHILDREN).ru_maxrss`, read by a small
intermediate process that has no other child, so sizes do not mask one another. Memory is
also printed per input byte and per result (above the bare-interpreter baseline): the figures
the bound on hostile inputs is judged by. `--breakdown` adds what the finished inventory holds,
by kind of object (pydantic's per-instance `__dict__` and fields-set, strings, lists). It
measures what `paperlint preflight` builds (preflight's own records, `build_draft`); with
`--contract`, the pydantic inventory a check writes (`build_inventory`: the same build, then
the conversion).
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
from collections import Counter
from pathlib import Path
from typing import Any

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


def run_child(size: int, folder: Path, breakdown: bool = False, contract: bool = False) -> None:
    """Build the inventory once and print how long it took (imports excluded)."""
    from paperlint.preflight import inventory as builder

    if contract:
        import paperlint.preflight.model  # noqa: F401  (its import is not the paper's cost)
    build = builder.build_inventory if contract else builder.build_draft
    start = time.perf_counter()
    inventory = build(folder, root="main.tex") if size else None
    seconds = time.perf_counter() - start
    count = len(inventory.results) if inventory is not None else 0
    held = live_bytes(inventory) if breakdown and inventory is not None else {}
    print(json.dumps({"seconds": seconds, "results": count, "held": held}))


def live_bytes(root: object) -> dict[str, int]:
    """Bytes the object graph under `root` holds, by kind (`sys.getsizeof`, each object once)."""
    from paperlint.preflight.record import Record

    base_model = getattr(sys.modules.get("pydantic"), "BaseModel", ())  # only if imported
    seen: set[int] = set()
    held: Counter[str] = Counter()
    pending: list[Any] = [root]
    while pending:
        obj = pending.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, Record):  # preflight's slotted records
            held[f"{type(obj).__name__} instance"] += sys.getsizeof(obj)
            pending += [getattr(obj, name) for name in obj.__slots__]
        elif isinstance(obj, base_model):
            name = type(obj).__name__
            held[f"{name} instance"] += sys.getsizeof(obj)
            held[f"{name} __dict__"] += sys.getsizeof(obj.__dict__)
            fields_set = obj.__pydantic_fields_set__
            if id(fields_set) not in seen:  # a set shared by many instances counts once
                seen.add(id(fields_set))
                held[f"{name} fields-set"] += sys.getsizeof(fields_set)
            pending += obj.__dict__.values()
        elif isinstance(obj, (list, tuple)):
            held["list"] += sys.getsizeof(obj)
            pending += obj
        elif isinstance(obj, dict):
            held["dict"] += sys.getsizeof(obj)
            pending += [*obj.keys(), *obj.values()]
        else:
            held["str" if isinstance(obj, str) else "other"] += sys.getsizeof(obj)
    return dict(held)


def run_measure(size: int, folder: Path, breakdown: bool = False, contract: bool = False) -> None:
    """Run one child and report its output plus its peak resident memory."""
    me = [sys.executable, __file__, "--child", str(size), str(folder)]
    me += ["--breakdown"] if breakdown else []
    me += ["--contract"] if contract else []
    out = subprocess.run(me, capture_output=True, text=True, check=False)
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    record = json.loads(out.stdout) if out.returncode == 0 else {"error": out.stderr[-500:]}
    print(json.dumps({**record, "peak_mib": peak_kib / 1024}))


def measure(
    size: int, *, latex_time: bool = False, breakdown: bool = False, contract: bool = False
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="paperlint-scale-") as tmp:
        folder = Path(tmp)
        (folder / "main.tex").write_text(synthetic_paper(size), encoding="utf-8")
        me = [sys.executable, __file__, "--measure", str(size), str(folder)]
        me += ["--breakdown"] if breakdown else []
        me += ["--contract"] if contract else []
        out = subprocess.run(me, capture_output=True, text=True, check=True)
        record: dict[str, Any] = json.loads(out.stdout)
        record["size_kib"] = (folder / "main.tex").stat().st_size / 1024
        if latex_time and size:
            from paperlint.preflight.latexrun import compile_project

            record["latexmk_s"] = compile_project(folder, "main.tex", timeout=600).seconds
    return record


def exponent(n1: int, t1: float, n2: int, t2: float) -> float:
    """The k in t ∝ n^k between two sizes; 1 is linear."""
    return math.log(t2 / t1) / math.log(n2 / n1) if t1 > 0 and t2 > 0 else float("nan")


def report(
    sizes: list[int], *, latex_time: bool = False, breakdown: bool = False, contract: bool = False
) -> None:
    base = measure(0, contract=contract)
    floor = float(base["peak_mib"])
    print(f"baseline (python + imports, no paper): peak {floor:.1f} MiB")
    print(
        f"{'results':>8} {'found':>6} {'tex KiB':>8} {'time s':>8} {'ms/result':>9} "
        f"{'peak MiB':>9} {'B/in-B':>7} {'KiB/res':>7} {'exponent':>8} {'latexmk s':>9}"
    )
    previous: tuple[int, float] | None = None
    last = float("nan")
    for size in sizes:
        rec = measure(size, latex_time=latex_time, breakdown=breakdown, contract=contract)
        if "error" in rec:
            print(f"{size:>8} failed: {rec['error']}")
            continue
        seconds = float(rec["seconds"])
        k = exponent(*previous, size, seconds) if previous else float("nan")
        grown = (float(rec["peak_mib"]) - floor) * 1024  # KiB above the bare interpreter
        print(
            f"{size:>8} {int(rec['results']):>6} {float(rec['size_kib']):>8.0f} {seconds:>8.3f} "
            f"{1000 * seconds / size:>9.3f} {float(rec['peak_mib']):>9.1f} "
            f"{grown / float(rec['size_kib']):>7.1f} {grown / size:>7.2f} {k:>8.2f} "
            f"{float(rec.get('latexmk_s', 'nan')):>9.2f}"
        )
        held: dict[str, int] = rec.get("held") or {}
        if held:
            total = sum(held.values())
            print(
                f"{'':>8} the inventory holds {total / 2**20:.1f} MiB "
                f"({total / size:.0f} B/result):"
            )
            for name, size_b in sorted(held.items(), key=lambda kv: -kv[1])[:8]:
                print(f"{'':>10} {name:<26} {size_b / 2**20:8.1f} MiB {size_b / total:6.1%}")
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
    parser.add_argument(
        "--breakdown", action="store_true", help="what the inventory holds, by kind of object"
    )
    parser.add_argument(
        "--contract", action="store_true", help="measure the pydantic inventory a check writes"
    )
    parser.add_argument("--child", nargs=2, metavar=("N", "DIR"), help=argparse.SUPPRESS)
    parser.add_argument("--measure", nargs=2, metavar=("N", "DIR"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        run_child(int(args.child[0]), Path(args.child[1]), args.breakdown, args.contract)
    elif args.measure:
        run_measure(int(args.measure[0]), Path(args.measure[1]), args.breakdown, args.contract)
    else:
        latex_time = args.latex_time and shutil.which("latexmk") is not None
        report(args.sizes, latex_time=latex_time, breakdown=args.breakdown, contract=args.contract)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

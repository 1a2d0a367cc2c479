#!/usr/bin/env python3
"""How often does preflight number a label as pdflatex does, on random documents?

    python benchmarks/preflight_fuzz.py [--seeds 0:200] [--wide] [--more] [--show 10]

Each seed makes one document (`tests/preflight_latex/fuzzdoc.py`: theorems, displays,
sections, appendices, counters, conditionals, lists and floats in random combinations; with
--wide in twelve classes, with --more also counter arithmetic, `\\tag`s of counters,
footnotes and conditionals on macros), compiled by the product's confined latexmk runner
and compared label by label with preflight's inventory. Prints the documents and labels
compared, those that agree, the documents LaTeX refused (the generator's fault) and the first
--show disagreements with their seeds, to re-run as `fuzzdoc.document(seed, ...)`.

Measured 2026-12-04 on the development machine (TeX Live 2022): see docs/preflight.md,
"The differential fuzz".
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.preflight_latex.fuzzdoc import compare, document  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", default="0:200", help="FIRST:END, END excluded")
    parser.add_argument("--wide", action="store_true", help="twelve classes, not four")
    parser.add_argument("--more", action="store_true", help="counter arithmetic and the rarer")
    parser.add_argument("--rare", action="store_true", help="parts, secnumdepth, subfigures")
    parser.add_argument("--show", type=int, default=10)
    args = parser.parse_args()
    first, end = (int(x) for x in args.seeds.split(":"))
    documents = agree = refused = labels = wrong_labels = 0
    shown: list[str] = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(first, end):
            text = document(seed, wide=args.wide, more=args.more, rare=args.rare)
            outcome = compare(text, Path(tmp) / str(seed))
            if not outcome.compiled:
                refused += 1
                continue
            documents += 1
            labels += outcome.labels
            wrong_labels += len(outcome.wrong)
            agree += not outcome.wrong
            if outcome.wrong and len(shown) < args.show:
                shown.append(f"  seed {seed}: {list(outcome.wrong)[:4]}")
    seconds = time.perf_counter() - started
    print(
        f"{documents} documents ({labels} labels) compared in {seconds:.0f} s; "
        f"{agree} agree on every label; {labels - wrong_labels} of {labels} labels agree; "
        f"{refused} refused by LaTeX"
    )
    print("\n".join(shown))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

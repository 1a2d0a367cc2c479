#!/usr/bin/env python3
"""How well does preflight find LaTeX's numbered results, numbers and labels on real papers?

    python benchmarks/preflight_corpus.py CORPUS_DIR [--latex-time] [--process] [--json]

CORPUS_DIR holds one folder per paper: `src/`, `meta.json` (`main`) and `groundtruth.json`
(LaTeX's printed `heads` and `labels`). Per paper and in total it prints: numbered heads LaTeX
printed (restatements excluded), numbered results preflight found, heads matched to a result
(by file and `\\begin` line, else by order within the environment), matched heads whose number
agrees, label → number agreement over the ground-truth labels that the inventory maps to a
result or an equation ("lbls"), and over every label LaTeX wrote ("all": figures, tables,
items, footnotes, algorithms; 1,271 -> 1,331 of 1,358 on 2026-12-04, when float parts and
IEEEtran's tables were read; 1,355 once algorithm lines, `\\captionof` and longtable
were, 1,358 with labels before a caption). Preflight time is the median of 3 runs; with
--latex-time, one latexmk compile of a scratch copy is timed too. With --process,
preflight is timed as a user runs it:
the whole `paperlint preflight MAIN -q` process (interpreter start, imports, the build; median
wall seconds of PROCESS_RUNS runs after one not counted, CPU seconds beside it), and pre/tex
compares that with latexmk. A process of ~0.1 s varies by tens of milliseconds with the state
of the machine, not the code: on the 2-core development VM, cpt-rl's whole preflight took
0.075 s (median of 3) run alone, 0.081 s right after the in-process builds and 0.105 s after
2 s idle (2026-12-04); 25 runs interleaved with `python -c pass` gave 0.074-0.080 s, and this
script in full 0.100 s (11 runs) the same hour. Read pre/tex near 0.02 with that spread.

A pre/tex marked `*` divides by a compile that ended with errors, which is no yardstick: it
may stop early. pfr needs the Asana-Math font (its meta.json: Debian's
fonts-oflb-asana-math); without it xelatex stops at fontspec's error and latexmk took
2.6-2.8 s, with it the clean compile of the 67 pages takes 6.35-6.51 s (2026-12-04), so
pfr's pre/tex read 0.033-0.034 until then and 0.013 since. cpt-rl's copy lacks its figures
and data tables (pgfplots errors, no PDF): its 2.9-3.6 s is such a compile too.

The five largest papers, `--latex-time --process`, 2026-12-04 20:50, after the walk's work,
the regex cache, the collector's threshold and the exit without teardown (whole process,
seconds; against the same compiles): pfr 0.063 / 5.98 = 0.010, hyperbolic-clustering
0.091 / 7.20 = 0.013, cpt-rl 0.053 / 2.95 = 0.018*, fmsc 0.079 / 9.53 = 0.008*, jmlr-orff
0.070 (no yardstick: `jmlr2e.sty`, JMLR's own style, is in no TeX Live package). The same
morning: pfr 0.088 (0.034*, and 0.015 against its clean compile), cpt-rl 0.066-0.074.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections import defaultdict, deque
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from paperlint.preflight.auxfile import normalise_number
from paperlint.preflight.latexcheck import same_number
from paperlint.preflight.model import Inventory, Result

RUNS = 3
PROCESS_RUNS = 11


@dataclass
class PaperScore:
    name: str
    heads: int = 0  # numbered heads LaTeX printed
    found: int = 0  # numbered results preflight reported
    matched: int = 0
    matched_by_line: int = 0
    numbers_agree: int = 0
    labels_compared: int = 0
    labels_agree: int = 0
    all_labels: int = 0  # every label LaTeX wrote (figures, tables, items, ...), but its own
    all_labels_agree: int = 0
    false_results: int = 0  # numbered results no LaTeX head matches
    keyed: int = 0  # results in the hand-checked proof/uses key (benchmarks/corpus/keys/)
    proofs_agree: int = 0
    uses_agree: int = 0
    preflight_s: float | None = None
    process_cpu_s: float | None = None  # --process: the whole command's CPU seconds
    latexmk_s: float | None = None
    latex_status: str | None = None
    latex_clean: bool | None = None  # the compile ended without errors (a fair yardstick)
    latex_labels: int | None = None  # labels in the compiled .aux (0: stopped early)
    aux_agrees: int | None = None  # of those, how many equal the ground truth's number
    latex_backed: int | None = None  # results whose number --latex took from the .aux
    latex_numbers_agree: int | None = None  # heads whose number agrees after --latex
    error: str | None = None
    mismatches: list[str] | None = None

    @property
    def ratio(self) -> float | None:
        # a compile that stopped before writing labels (missing class) is not a fair time
        if self.preflight_s is None or not self.latexmk_s or not self.latex_labels:
            return None
        return self.preflight_s / self.latexmk_s


def build(src: Path, main: str) -> Inventory:
    from paperlint.preflight.inventory import build_inventory  # the emulator, maybe not yet

    return build_inventory(src, root=main)


def timed_inventory(src: Path, main: str) -> tuple[Inventory, float]:
    times: list[float] = []
    for _ in range(RUNS):
        start = time.perf_counter()
        inventory = build(src, main)
        times.append(time.perf_counter() - start)
    return inventory, statistics.median(times)


def timed_process(src: Path, main: str) -> tuple[float, float]:
    """Median wall and CPU seconds of the whole `paperlint preflight MAIN -q` process."""
    walls: list[float] = []
    cpus: list[float] = []
    argv = [sys.executable, "-m", "paperlint", "preflight", str(src / main), "-q"]
    subprocess.run(argv, capture_output=True, check=False, cwd=src)  # files cached, not counted
    for _ in range(PROCESS_RUNS):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(argv, capture_output=True, check=False, cwd=src)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def numbered_heads(truth: dict[str, Any]) -> list[dict[str, Any]]:
    return [h for h in truth["heads"] if h.get("number") and not h.get("restated")]


def rel_file(file: str, src: Path, main: str) -> str:
    """Inventory files are relative to the project; accept ones relative to main's folder."""
    if (src / file).is_file():
        return file
    alt = (Path(main).parent / file).as_posix()
    return alt if (src / alt).is_file() else file


def match_heads(
    heads: list[dict[str, Any]], results: list[Result], src: Path, main: str
) -> tuple[list[tuple[dict[str, Any], Result]], int]:
    """Pair heads with results: exact file+line first, then in order within each env."""
    by_place = {(rel_file(r.span.file, src, main), r.span.start_line): r for r in results}
    pairs: list[tuple[dict[str, Any], Result]] = []
    used: set[int] = set()
    left: list[dict[str, Any]] = []
    for head in heads:
        hit = by_place.get((head["file"], head["line"]))
        if hit is not None and id(hit) not in used:
            pairs.append((head, hit))
            used.add(id(hit))
        else:
            left.append(head)
    by_line = len(pairs)
    queues: dict[str, deque[Result]] = defaultdict(deque)
    for r in results:
        if id(r) not in used:
            queues[r.env].append(r)
    for head in left:
        queue = queues.get(head["env"])
        if queue:
            pairs.append((head, queue.popleft()))
    return pairs, by_line


def label_numbers(inventory: Inventory) -> dict[str, str | None]:
    """The number the inventory gives each label of a result or an equation (a label in an
    unnumbered result writes the enclosing number, which `inventory.labels` holds)."""
    numbers: dict[str, str | None] = {k: eq.number for k, eq in inventory.equations.items()}
    for r in inventory.results:
        for key in r.labels:
            numbers[key] = inventory.labels.get(key, r.number)
    return numbers


def score_paper(folder: Path, *, latex_time: bool, process: bool = False) -> PaperScore:
    meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    truth = json.loads((folder / "groundtruth.json").read_text(encoding="utf-8"))
    src, main = folder / "src", meta["main"]
    score = PaperScore(folder.name)
    heads = numbered_heads(truth)
    score.heads = len(heads)
    try:
        inventory, score.preflight_s = timed_inventory(src, main)
    except Exception as exc:  # a benchmark reports every paper, even when one crashes
        score.error = f"{type(exc).__name__}: {exc}"[:200]
        if latex_time:
            time_latexmk(score, src, main, truth, None)
        return score
    if process:
        score.preflight_s, score.process_cpu_s = timed_process(src, main)
    results = [r for r in inventory.results if r.restates is None]
    score.found = sum(r.number is not None for r in results)
    pairs, score.matched_by_line = match_heads(heads, results, src, main)
    score.matched = len(pairs)
    score.numbers_agree, score.mismatches = agreement(pairs)
    paired = {id(result) for _, result in pairs}
    score.false_results = sum(r.number is not None and id(r) not in paired for r in results)
    score_key(score, inventory, src, main)
    if latex_time:
        time_latexmk(score, src, main, truth, inventory)
    known = label_numbers(inventory)
    for key, number in truth["labels"].items():
        if key in known:
            score.labels_compared += 1
            score.labels_agree += same_number(known[key], number)
        if not key.startswith(LATEX_OWN_LABELS) and key not in CLASS_LABELS:
            score.all_labels += 1
            found = inventory.labels.get(key)
            # the ground truth keeps some labels as the .aux spells them (`\\mbox IV-B`)
            printed = normalise_number(number)
            score.all_labels_agree += found is not None and same_number(found, printed)
    return score


# labels packages write for themselves (subcaption's `sub@`, thmtools', amsart's toc), and
# revtex's first and last page: no `\\label` of the paper
LATEX_OWN_LABELS = ("sub@", "thmt@", "tocindent")
CLASS_LABELS = ("FirstPage", "LastPage")


KEYS = Path(__file__).resolve().parent / "corpus" / "keys"


def score_key(score: PaperScore, inventory: Inventory, src: Path, main: str) -> None:
    """Compare with the hand-checked key: per result label, the file and line where its
    proof begins (null: no proof) and the labels its proof uses."""
    key_file = KEYS / f"{score.name}.json"
    if not key_file.is_file():
        return
    key = json.loads(key_file.read_text(encoding="utf-8"))["results"]
    by_label = {label: r for r in inventory.results for label in r.labels}
    ids = {r.id: r for r in inventory.results}
    for label, want in key.items():
        score.keyed += 1
        result = by_label.get(label) or ids.get(label)
        if result is None:
            continue
        got = None
        if result.proof is not None:
            got = f"{rel_file(result.proof.span.file, src, main)}:{result.proof.span.start_line}"
        score.proofs_agree += got == want["proof"]
        score.uses_agree += sorted(result.proof_uses) == sorted(want["uses"])


def agreement(pairs: list[tuple[dict[str, Any], Result]]) -> tuple[int, list[str]]:
    agree, mismatches = 0, []
    for head, result in pairs:
        if same_number(result.number, head["number"]):
            agree += 1
        else:
            mismatches.append(
                f"{head['file']}:{head['line']} {head['env']} {head['number']} vs {result.number}"
            )
    return agree, mismatches


def time_latexmk(
    score: PaperScore, src: Path, main: str, truth: dict[str, Any], inventory: Inventory | None
) -> None:
    """One --latex compile (with probe labels when there is an inventory), timed."""
    from paperlint.errors import InputError
    from paperlint.preflight.latexcheck import plan_probes, reconcile
    from paperlint.preflight.latexrun import compile_project
    from paperlint.preflight.probes import add_probes_to_tree, is_probe

    probes = plan_probes(inventory) if inventory is not None else []
    try:
        compiled = compile_project(
            src,
            main,
            engine=truth.get("engine"),
            timeout=600,
            edit=lambda scratch: add_probes_to_tree(scratch, probes),
        )
    except InputError as exc:
        score.latex_status = f"not run: {exc.message}"
        return
    score.latexmk_s = compiled.seconds
    score.latex_clean = compiled.status.value == "ok"
    labels = {k: v for k, v in compiled.aux.labels.items() if not is_probe(k)}
    score.latex_labels = len(labels)
    # the .aux reader checked against the corpus' own reading of the same .aux
    score.aux_agrees = sum(
        key in truth["labels"] and same_number(truth["labels"][key], label.number)
        for key, label in labels.items()
    )
    if inventory is not None and labels:
        checked = reconcile(inventory, compiled)
        score.latex_backed = sum(r.number_source == "latex" for r in checked.results)
        heads = numbered_heads(truth)
        pairs, _ = match_heads(heads, [r for r in checked.results if r.restates is None], src, main)
        score.latex_numbers_agree = agreement(pairs)[0]
    score.latex_status = (
        f"latex {compiled.status.value}, {score.latex_labels} labels "
        f"({score.aux_agrees} = ground truth)"
    )
    if score.latex_backed is not None:
        score.latex_status += (
            f"; --latex: {score.latex_backed} numbers from LaTeX, "
            f"{score.latex_numbers_agree}/{score.heads} heads agree"
        )
    if not compiled.aux.labels:
        score.latex_status += ": " + _last_error(compiled.log_tail)


def _last_error(log_tail: str) -> str:
    lines = [line for line in log_tail.splitlines() if line.startswith("!") or ".tex:" in line]
    return lines[0][:90] if lines else "no error line in the log tail"


def total(scores: list[PaperScore]) -> PaperScore:
    out = PaperScore("TOTAL")
    for s in scores:
        for name in (
            "heads",
            "found",
            "matched",
            "matched_by_line",
            "numbers_agree",
            "labels_compared",
            "labels_agree",
            "all_labels",
            "all_labels_agree",
            "false_results",
            "keyed",
            "proofs_agree",
            "uses_agree",
        ):
            setattr(out, name, getattr(out, name) + getattr(s, name))
    pre = [s.preflight_s for s in scores if s.preflight_s is not None]
    out.preflight_s = sum(pre) if pre else None
    # latexmk total over the compiles that wrote labels, so the ratio compares like with like
    fair = [s for s in scores if s.ratio is not None]
    if fair:
        out.latexmk_s = sum(s.latexmk_s or 0.0 for s in fair)
        fair_pre = sum(s.preflight_s or 0.0 for s in fair)
        out.latex_status = f"pre/tex over {len(fair)} papers that compiled: {fair_pre:.3f} s"
        out.latex_status += f" vs {out.latexmk_s:.3f} s = {fair_pre / out.latexmk_s:.3f}"
    return out


def pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f}%" if whole else "    -"


def secs(value: float | None) -> str:
    return f"{value:8.3f}" if value is not None else "       -"


def print_table(scores: list[PaperScore]) -> None:
    header = (
        f"{'paper':<22} {'heads':>5} {'found':>5} {'match':>5} {'byline':>6} {'num ok':>6} "
        f"{'num%':>6} {'lbls':>5} {'lbl ok':>6} {'lbl%':>6} {'all':>5} {'all%':>6} "
        f"{'false':>5} {'key':>4} "
        f"{'proof':>5} {'uses':>5} {'pre s':>8} {'tex s':>8} "
        f"{'pre/tex':>7}  note"
    )
    print(header)
    print("-" * len(header))
    for s in [*scores, total(scores)]:
        ratio = f"{s.ratio:7.3f}" if s.ratio is not None else "      -"
        if s.ratio is not None and s.latex_clean is False:
            ratio = f"{s.ratio:6.3f}*"  # the compile stopped or erred: its time is no yardstick
        note = s.error or (s.latex_status or "")
        if s.process_cpu_s is not None:
            note = f"process {s.process_cpu_s:.3f} s CPU; {note}"
        print(
            f"{s.name:<22} {s.heads:>5} {s.found:>5} {s.matched:>5} {s.matched_by_line:>6} "
            f"{s.numbers_agree:>6} {pct(s.numbers_agree, s.heads):>6} {s.labels_compared:>5} "
            f"{s.labels_agree:>6} {pct(s.labels_agree, s.labels_compared):>6} "
            f"{s.all_labels:>5} {pct(s.all_labels_agree, s.all_labels):>6} "
            f"{s.false_results:>5} {s.keyed:>4} {s.proofs_agree:>5} {s.uses_agree:>5} "
            f"{secs(s.preflight_s)} {secs(s.latexmk_s)} {ratio}  {note}"
        )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("corpus", type=Path, nargs="+", help="one or more corpus folders")
    parser.add_argument("--latex-time", action="store_true", help="also time one latexmk run")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument(
        "--process", action="store_true", help="time the whole `paperlint preflight` process"
    )
    parser.add_argument("--only", action="append", default=[], help="only this paper (repeat)")
    parser.add_argument("--mismatches", action="store_true", help="list number mismatches")
    parser.add_argument(
        "--pdf",
        action="store_true",
        help="compile each paper to PDF and score the PDF preflight instead (needs TeX)",
    )
    parser.add_argument(
        "--stubs", action="store_true", help="with --pdf: stub missing vendored classes/styles"
    )
    args = parser.parse_args(argv)
    if args.pdf:
        return _pdf_mode(args.corpus[0], only=args.only, stubs=args.stubs)
    latex_time = args.latex_time and shutil.which("latexmk") is not None
    if args.latex_time and not latex_time:
        print("latexmk not installed: --latex-time ignored", file=sys.stderr)
    folders = [
        p
        for corpus in args.corpus
        for p in sorted(corpus.iterdir())
        if (p / "groundtruth.json").is_file()
    ]
    if args.only:
        folders = [p for p in folders if p.name in args.only]
    scores = [score_paper(f, latex_time=latex_time, process=args.process) for f in folders]
    if args.json:
        rows = [{**asdict(s), "ratio": s.ratio} for s in [*scores, total(scores)]]
        print(json.dumps(rows, indent=2))
    else:
        print_table(scores)
        if args.mismatches:
            for s in scores:
                for line in s.mismatches or []:
                    print(f"{s.name}: {line}")
    return 0


def _pdf_mode(corpus: Path, *, only: list[str], stubs: bool) -> int:
    # The PDF benchmark lives beside this file (benchmarks/preflight_pdf.py).
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from preflight_pdf import render, run_pdf_benchmark

    if shutil.which("latexmk") is None:
        print("--pdf needs TeX (latexmk) to compile the corpus papers", file=sys.stderr)
        return 2
    print(render(run_pdf_benchmark(corpus, only=only or None, stubs=stubs)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Benchmark the PDF preflight on the measurement corpus (issue #7).

    python benchmarks/preflight_pdf.py CORPUS_DIR [--timeout 300] [--only NAME ...]

Each paper's `src/` is copied to a scratch folder and compiled with latexmk (no shell escape,
nonstopmode, forced past errors). Papers whose class or style files are not vendored do not
compile; they are reported as "not compiled". The PDF inventory is compared with LaTeX's own
record of printed heads (`groundtruth.json`): a numbered head counts as found when a result
has the same kind and the same printed number; a numbered result with no such head is false.

`benchmarks/preflight_corpus.py --pdf` can reuse `compile_paper`, `score_inventory` and
`run_pdf_benchmark` from here.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from paperlint.errors import InputError
from paperlint.preflight.model import Inventory
from paperlint.preflight.pdf import build_pdf_inventory
from paperlint.preflight.pdf.heads import kind_of


@dataclass
class PaperScore:
    name: str
    compiled: bool
    reason: str = ""
    heads: int = 0  # numbered, non-restated heads LaTeX printed
    found: int = 0  # of those, found with the right kind and number
    false: int = 0  # numbered results the PDF preflight reported that LaTeX did not print
    missed: list[str] = field(default_factory=list)
    false_results: list[str] = field(default_factory=list)
    seconds: float = 0.0


def compile_paper(
    paper: Path, scratch: Path, *, timeout: int, stubs: bool = False
) -> tuple[Path | None, str]:
    """Compile `paper/src` in `scratch`; return the PDF (or None) and a short reason.

    With `stubs`, a missing style or class file (a vendored `imsart.cls`, `icml2016.sty`, a
    font package absent from this TeX Live) is replaced by an empty stub, a class by
    `article`, and the compile is retried: heads may then look different from the journal's,
    and the reason names the stubs so the scores can be told apart.
    """
    meta = json.loads((paper / "meta.json").read_text())
    work = scratch / paper.name
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(paper / "src", work)
    main = work / meta["main"]
    truth = json.loads((paper / "groundtruth.json").read_text())
    engine = meta.get("ground_truth", {}).get("engine") or truth.get("engine") or "pdflatex"
    stubbed: list[str] = []
    for _ in range(8 if stubs else 1):
        try:
            _latexmk(main, engine, timeout)
        except subprocess.TimeoutExpired:
            return None, f"timed out after {timeout}s"
        pdf = main.with_suffix(".pdf")
        if pdf.exists() and pdf.stat().st_size > 0:
            return pdf, f"compiled with stubs {', '.join(stubbed)}" if stubbed else "compiled"
        missing = _missing_file(main.with_suffix(".log"))
        if not stubs or missing is None or missing in stubbed:
            break
        _write_stub(main.parent / missing)
        stubbed.append(missing)
    return None, _first_error(main.with_suffix(".log"))


def _latexmk(main: Path, engine: str, timeout: int) -> None:
    command = [
        "latexmk",
        "-norc",  # a paper's latexmkrc is Perl code: never run it (its engine is in meta.json)
        "-xelatex" if engine == "xelatex" else "-pdf",
        "-f",
        "-interaction=nonstopmode",
        "-no-shell-escape",
        # as for the ground truth: a missing image is a draft box, not a fatal error
        r"-usepretex=\PassOptionsToPackage{draft}{graphicx}",
        main.name,
    ]
    subprocess.run(command, cwd=main.parent, capture_output=True, timeout=timeout, check=False)


def _missing_file(log: Path) -> str | None:
    if not log.exists():
        return None
    m = re.search(r"File `([\w.-]+\.(?:sty|cls))' not found", log.read_text(errors="replace"))
    return m.group(1) if m else None


def _write_stub(path: Path) -> None:
    if path.suffix == ".cls":
        # the class's own theorem styles are lost; amsthm is what imsart and friends load
        body = "\\LoadClass{article}\\RequirePackage{amsthm}\n"
    else:
        body = (
            "\\providecommand\\mathbbm[1]{\\mathbb{#1}}\\providecommand\\mathds[1]{\\mathbb{#1}}\n"
        )
    path.write_text(f"% paperlint benchmark stub\n{body}")


def _first_error(log: Path) -> str:
    if not log.exists():
        return "no log"
    for line in log.read_text(errors="replace").splitlines():
        if line.startswith("!"):
            return line[:120]
    return "no PDF produced"


def expected_heads(paper: Path) -> Counter[tuple[str, str]]:
    """(kind, number) of every numbered head LaTeX printed, restatements excluded."""
    truth = json.loads((paper / "groundtruth.json").read_text())
    return Counter(
        (kind_of(head["title"].split()[-1]), head["number"])
        for head in truth["heads"]
        if head["number"] and not head.get("restated")
    )


def score_inventory(
    name: str, inventory: Inventory, expected: Counter[tuple[str, str]]
) -> PaperScore:
    got = Counter((r.kind, r.number) for r in inventory.results if r.number and r.restates is None)
    found = expected & got
    missed = expected - got
    false = got - expected
    return PaperScore(
        name=name,
        compiled=True,
        heads=sum(expected.values()),
        found=sum(found.values()),
        false=sum(false.values()),
        missed=[f"{k}:{n}" for (k, n) in sorted(missed)],
        false_results=[f"{k}:{n}" for (k, n) in sorted(false)],
    )


def score_paper(
    paper: Path, scratch: Path, *, timeout: int, stubs: bool = False, reuse: bool = False
) -> PaperScore:
    import time

    kept = scratch / paper.name / Path(json.loads((paper / "meta.json").read_text())["main"])
    if reuse and kept.with_suffix(".pdf").is_file():
        pdf, reason = kept.with_suffix(".pdf"), "compiled"  # an earlier --keep compile
    else:
        pdf, reason = compile_paper(paper, scratch, timeout=timeout, stubs=stubs)
    if pdf is None:
        return PaperScore(paper.name, compiled=False, reason=reason)
    start = time.monotonic()
    try:
        inventory = build_pdf_inventory(pdf)
    except InputError as exc:
        return PaperScore(paper.name, compiled=True, reason=f"preflight error: {exc}")
    score = score_inventory(paper.name, inventory, expected_heads(paper))
    score.reason = "" if reason == "compiled" else reason
    score.seconds = time.monotonic() - start
    return score


def run_pdf_benchmark(
    corpus: Path,
    *,
    timeout: int = 300,
    only: list[str] | None = None,
    keep: Path | None = None,
    stubs: bool = False,
    reuse: bool = False,
) -> list[PaperScore]:
    """Score every corpus paper (or those in `only`); `keep` keeps the compiled folders, and
    with `reuse` a PDF already compiled there is scored again without compiling."""
    papers = sorted(p for p in corpus.iterdir() if (p / "meta.json").exists())
    if only:
        papers = [p for p in papers if p.name in only]
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        return [score_paper(p, keep, timeout=timeout, stubs=stubs, reuse=reuse) for p in papers]
    with tempfile.TemporaryDirectory(prefix="paperlint-pdfbench-") as scratch:
        return [score_paper(p, Path(scratch), timeout=timeout, stubs=stubs) for p in papers]


def render(scores: list[PaperScore]) -> str:
    rows = [f"{'paper':<24} {'heads':>5} {'found':>5} {'false':>5} {'secs':>6}  notes"]
    for s in scores:
        if not s.compiled or s.reason.startswith("preflight error"):
            rows.append(
                f"{s.name:<24} {'-':>5} {'-':>5} {'-':>5} {'-':>6}  not compiled: {s.reason}"
            )
            continue
        notes = f"[{s.reason}]  " if s.reason else ""
        if s.missed:
            notes += f"missed {_some(s.missed)}  "
        if s.false_results:
            notes += f"false {_some(s.false_results)}"
        rows.append(
            f"{s.name:<24} {s.heads:>5} {s.found:>5} {s.false:>5} {s.seconds:>6.1f}  {notes}"
        )
    stock = [s for s in scores if s.compiled and not s.reason]
    stubbed = [s for s in scores if s.compiled and s.reason.startswith("compiled with stubs")]
    rows.append(_total("TOTAL stock compile", stock, len(scores)))
    if stubbed:
        rows.append(_total("TOTAL with stubs", stubbed, len(scores)))
        rows.append(_total("TOTAL all compiled", stock + stubbed, len(scores)))
    return "\n".join(rows)


def _some(items: list[str]) -> str:
    return ", ".join(items[:8]) + (" …" if len(items) > 8 else "")


def _total(title: str, done: list[PaperScore], papers: int) -> str:
    heads = sum(s.heads for s in done)
    found = sum(s.found for s in done)
    share = 100.0 * found / heads if heads else 0.0
    return (
        f"{title}: {len(done)} of {papers} papers, {found}/{heads} found ({share:.1f}%), "
        f"{sum(s.false for s in done)} false results"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--timeout", type=int, default=300)
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--json", type=Path, help="also write the scores as JSON here")
    parser.add_argument("--keep", type=Path, help="compile here and keep the PDFs")
    parser.add_argument(
        "--stubs", action="store_true", help="stub missing .sty/.cls files (scored apart)"
    )
    parser.add_argument(
        "--reuse", action="store_true", help="with --keep: score PDFs already compiled there"
    )
    args = parser.parse_args(argv)
    if shutil.which("latexmk") is None:
        print("latexmk not found: install TeX Live to compile the corpus", file=sys.stderr)
        return 2
    scores = run_pdf_benchmark(
        args.corpus,
        timeout=args.timeout,
        only=args.only,
        keep=args.keep,
        stubs=args.stubs,
        reuse=args.reuse,
    )
    print(render(scores))
    if args.json:
        args.json.write_text(json.dumps([s.__dict__ for s in scores], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

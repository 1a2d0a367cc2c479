#!/usr/bin/env python3
"""How much of a real paper's statements does the HTML report show as raw TeX?

    python benchmarks/report_rawtex.py [CORPUS_DIR] [--json] [--names N]

CORPUS_DIR (default: $PAPERLINT_CORPUS, else /work/shared/corpus) holds one folder per paper:
`src/` and `meta.json` (`main`). For every result of each paper's inventory, the statement
goes through the report's renderer (`paperlint.reports.texhtml.statement_html`, with the
paper's macros, references and equation numbers, as `report.html` shows it) and the output
is searched for TeX the reader sees as source: a formula shown whole as TeX (`<code
class="tex">`), and any control word left in the text (`\\bf`, `\\todo`, `\\Cr{co}`).

A statement is *raw* when it shows any. Each control word left is then classed: **unknown**
when the paper's own files do not define it and it is not a LaTeX, amsmath or latex2mathml
command (a package macro such as `\\Cr` of `constants`: nothing can render it but TeX), else
**known** (paperlint should have rendered or dropped it). A statement counts against the goal
("raw, not unknown") when it shows a whole formula as TeX or a known control word. The table
lists the unknown names so the reader can judge them; `--names N` lists N per paper.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import sys
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path

DEFAULT_CORPUS = "/work/shared/corpus"
_FALLBACK = re.compile(r'<code class="tex"[^>]*>(.*?)</code>', re.S)
_TAG = re.compile(r"<[^>]+>")
_CONTROL_WORD = re.compile(r"\\([A-Za-z@]+)")
_DEFINES = re.compile(
    r"\\(?:(?:re)?newcommand\*?|providecommand\*?|DeclareRobustCommand\*?|DeclareMathOperator\*?"
    r"|newrobustcmd\*?|def|gdef|edef|xdef|let|DeclarePairedDelimiter\w*)\s*\{?\s*\\([A-Za-z@]+)"
)
# LaTeX and amsmath commands that latex2mathml's tables lack but that every TeX install knows:
# a statement showing one of these is the renderer's fault, not the paper's.
_LATEX_WORDS = """
    bf it rm sf tt sc sl em itshape bfseries upshape scshape slshape mdseries normalfont
    rmfamily sffamily ttfamily textbf textit textrm textsf texttt textsc textsl textup emph
    textnormal todo refstepcounter stepcounter setcounter addtocounter newline linebreak
    noindent indent par medskip smallskip bigskip vspace hspace vskip hskip label ref eqref
    cite citep citet footnote item hfill quad qquad ldots dots cdots vdots ddots mbox hbox
    makebox centering raggedright small footnotesize scriptsize tiny large Large normalsize
    phantom hphantom vphantom smash displaystyle textstyle scriptstyle S P dag ddag copyright
    ensuremath text operatorname mathbb mathcal mathfrak mathscr mathrm mathbf mathsf mathit
    mathtt boldsymbol bm overline underline widehat widetilde hat tilde bar vec dot ddot
    nolimits limits left right big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr
    colon vert Vert lvert rvert lVert rVert langle rangle lceil rceil lfloor rfloor hdots
    relax let notag nonumber tag begin end caption mathpalette footnotemark protect
    """
LATEX_COMMANDS = frozenset(_LATEX_WORDS.split())


@cache
def converter_commands() -> frozenset[str]:
    from latex2mathml import commands
    from latex2mathml.symbols_parser import SYMBOLS

    found: set[str] = set(SYMBOLS)
    for value in vars(commands).values():  # every name in the converter's tables
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, dict | tuple | list | set | frozenset):
            found.update(v for v in value if isinstance(v, str))
    return frozenset(n[1:] for n in found if re.fullmatch(r"\\[A-Za-z@]+", n))


@dataclass
class PaperRaw:
    name: str
    statements: int = 0
    raw: int = 0  # shows any TeX as source
    whole_formula: int = 0  # at least one formula shown entirely as TeX
    raw_known: int = 0  # raw for a reason other than an unknown macro (the goal: 0)
    unknown_only: int = 0  # raw only because of macros nothing but TeX can render
    unknown_names: dict[str, int] = field(default_factory=dict)
    known_names: dict[str, int] = field(default_factory=dict)
    error: str | None = None


def paper_definitions(src: Path) -> set[str]:
    """Control words the paper's own .tex/.sty/.cls files define (any definition command)."""
    names: set[str] = set()
    for pattern in ("*.tex", "*.sty", "*.cls"):
        for path in src.rglob(pattern):
            try:
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            names.update(_DEFINES.findall(text))
    return names


def shown_commands(rendered: str) -> tuple[list[str], bool]:
    """The control words a reader sees in `rendered`, and whether a formula is shown whole."""
    whole = bool(_FALLBACK.search(rendered))
    text = html.unescape(_TAG.sub(" ", rendered))
    return _CONTROL_WORD.findall(text), whole


def measure(folder: Path) -> PaperRaw:
    from paperlint.preflight.inventory import build_inventory
    from paperlint.reports.texhtml import statement_html

    meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    score = PaperRaw(folder.name)
    src = folder / "src"
    try:
        inventory = build_inventory(src, root=meta["main"])
    except Exception as exc:  # a paper preflight refuses is reported, not fatal
        score.error = f"{type(exc).__name__}: {exc}"
        return score
    own = paper_definitions(src) | {m.name.lstrip("\\") for m in inventory.macros}
    known = converter_commands() | LATEX_COMMANDS
    targets = {label: ("#", r.number or r.id) for r in inventory.results for label in r.labels}
    for label, eq in inventory.equations.items():
        targets.setdefault(label, ("#", eq.number))
    equations = {k: e.number for k, e in inventory.equations.items()}
    for result in inventory.results:
        rendered = statement_html(
            result.statement, macros=inventory.macros, resolve=targets.get, equations=equations
        )
        names, whole = shown_commands(rendered)
        score.statements += 1
        if not names and not whole:
            continue
        score.raw += 1
        score.whole_formula += whole
        unknown = [n for n in names if n not in known and n not in own]
        knowns = [n for n in names if n in known or n in own]
        for bucket, found in ((score.unknown_names, unknown), (score.known_names, knowns)):
            for name in found:
                bucket[name] = bucket.get(name, 0) + 1
        if whole or knowns:
            score.raw_known += 1
        else:
            score.unknown_only += 1
    return score


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f} %" if whole else "    —"


def _top(names: dict[str, int], n: int) -> str:
    ranked = sorted(names.items(), key=lambda kv: (-kv[1], kv[0]))[:n]
    return " ".join(f"\\{name}×{count}" for name, count in ranked)


def print_table(scores: list[PaperRaw], names: int) -> None:
    head = f"{'paper':24} {'stmts':>5} {'raw':>5} {'raw %':>7} {'whole':>5} "
    head += f"{'not-unknown':>11} {'goal %':>7}  unknown macros | known left"
    print(head)
    for s in scores:
        if s.error:
            print(f"{s.name:24} error: {s.error}")
            continue
        print(
            f"{s.name:24} {s.statements:5d} {s.raw:5d} {_share(s.raw, s.statements):>7} "
            f"{s.whole_formula:5d} {s.raw_known:11d} {_share(s.raw_known, s.statements):>7}  "
            f"{_top(s.unknown_names, names)} | {_top(s.known_names, names)}"
        )
    ok = [s for s in scores if not s.error]
    total = sum(s.statements for s in ok)
    raw = sum(s.raw for s in ok)
    known = sum(s.raw_known for s in ok)
    whole = sum(s.whole_formula for s in ok)
    print(
        f"{'TOTAL':24} {total:5d} {raw:5d} {_share(raw, total):>7} {whole:5d} "
        f"{known:11d} {_share(known, total):>7}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpus", nargs="?", default=os.environ.get("PAPERLINT_CORPUS"))
    parser.add_argument("--json", action="store_true", help="print the scores as JSON")
    parser.add_argument("--names", type=int, default=4, help="names listed per paper")
    args = parser.parse_args(argv)
    corpus = Path(args.corpus or DEFAULT_CORPUS)
    if not corpus.is_dir():
        print(f"{corpus}: no such corpus folder; pass CORPUS_DIR", file=sys.stderr)
        return 2
    folders = sorted(p for p in corpus.iterdir() if (p / "meta.json").is_file())
    scores = [measure(folder) for folder in folders]
    if args.json:
        print(json.dumps([asdict(s) for s in scores], indent=2))
    else:
        print_table(scores, args.names)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Random, valid LaTeX documents for the differential test of preflight's numbering against
pdflatex (`test_fuzz_numbering.py`, `benchmarks/preflight_fuzz.py`).

A document is made from a seed: a class (article, amsart, report, book; with `wide` also
llncs, elsarticle, IEEEtran, revtex4-2, amsbook, KOMA's scrartcl and scrreprt, memoir), a
theorem package (amsthm, thmtools, ntheorem), theorem declarations that share, own or reset
counters, and a body of blocks: theorems, the amsmath displays, sections and `\\appendix`,
counter commands, conditionals, wrapper macros, lists and floats; with `more` also counter
arithmetic (`\\value`, `\\numexpr`), `\\tag` with counters, `subequations`, footnotes,
`\\ifdefined`, `\\ifx`, `\\refstepcounter`. Every `\\label` is `L<n>`: pdflatex's `.aux`
gives each one's number, and preflight must give the same.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from pathlib import Path

CORE_CLASSES = ("article", "article", "amsart", "report", "book")
WIDE_CLASSES = (
    "llncs",
    "elsarticle",
    "IEEEtran",
    "revtex4-2",
    "amsbook",
    "scrartcl",
    "scrreprt",
    "memoir",
)
CHAPTERED = ("report", "book", "amsbook", "scrreprt", "memoir")
THEOREM_STYLES = ("plain", "definition", "remark")
OTHER_ENVS = ("lemma", "proposition", "corollary", "definition", "remark", "example", "claim")
LLNCS_ENVS = ("theorem", "lemma", "corollary", "proposition", "definition", "remark", "example")


@dataclass
class Preamble:
    doc_class: str
    top: str  # the outermost numbered level: chapter or section
    lines: list[str]
    counters: dict[str, str | None]  # theorem environment -> the counter it steps (None: none)
    package: str  # amsthm, amsthm+thmtools, ntheorem, llncs
    features: set[str] = field(default_factory=set)


def preamble(rng: random.Random, *, wide: bool, more: bool) -> Preamble:
    doc_class = rng.choice(CORE_CLASSES + (WIDE_CLASSES if wide else ()))
    if doc_class == "llncs":
        lines = [r"\documentclass{llncs}", r"\usepackage{amsmath,amssymb}"]
        if rng.random() < 0.3:
            lines.append(r"\usepackage{hyperref}")
        if more:
            lines.append(r"\newcommand{\knownmacro}{}")
        counters: dict[str, str | None] = dict.fromkeys(LLNCS_ENVS, "theorem")
        counters["claim"] = None
        return Preamble("llncs", "section", lines, counters, "llncs")
    package = rng.choice(("amsthm", "amsthm", "amsthm+thmtools", "ntheorem"))
    if doc_class in ("amsart", "amsbook"):  # they load amsthm
        package = rng.choice(("amsthm", "amsthm+thmtools"))
    lines = [rf"\documentclass{{{doc_class}}}", r"\usepackage{amsmath,amssymb}"]
    if package.startswith("amsthm") and doc_class not in ("amsart", "amsbook"):
        lines.append(r"\usepackage{amsthm}")
    if package.endswith("thmtools"):
        lines.append(r"\usepackage{thmtools}")
    if package == "ntheorem":
        lines.append(r"\usepackage[amsmath,thmmarks]{ntheorem}")
    for wanted, line in ((0.3, r"\usepackage{etoolbox}"), (0.3, r"\usepackage{enumitem}")):
        if rng.random() < wanted:
            lines.append(line)
    if rng.random() < 0.25:
        lines.append(r"\usepackage{hyperref}")
        if rng.random() < 0.5:
            lines.append(r"\usepackage{cleveref}")
    top = "chapter" if doc_class in CHAPTERED else "section"
    pre = Preamble(doc_class, top, lines, {}, package)
    _theorems(rng, pre)
    _extras(rng, pre, more=more)
    return pre


def _theorems(rng: random.Random, pre: Preamble) -> None:
    within = rng.choice((None, pre.top, "section" if pre.top == "chapter" else None, "subsection"))
    thmtools = pre.package.endswith("thmtools")
    if thmtools and rng.random() < 0.5:
        pre.lines.append(
            rf"\declaretheorem{f'[numberwithin={within}]' if within else ''}{{theorem}}"
        )
    else:
        pre.lines.append(r"\newtheorem{theorem}{Theorem}" + (f"[{within}]" if within else ""))
    pre.counters["theorem"] = "theorem"
    for env in OTHER_ENVS:
        r = rng.random()
        if r < 0.15:
            continue
        style = rng.choice(THEOREM_STYLES) if pre.package != "ntheorem" else None
        if style and rng.random() < 0.4:
            pre.lines.append(rf"\theoremstyle{{{style}}}")
        name = env.capitalize()
        if r < 0.6:
            if thmtools and rng.random() < 0.4:
                pre.lines.append(rf"\declaretheorem[sibling=theorem,name={name}]{{{env}}}")
            else:
                pre.lines.append(rf"\newtheorem{{{env}}}[theorem]{{{name}}}")
            pre.counters[env] = "theorem"
        elif r < 0.8:
            reset = rng.choice((None, pre.top, "theorem"))
            pre.lines.append(rf"\newtheorem{{{env}}}{{{name}}}" + (f"[{reset}]" if reset else ""))
            pre.counters[env] = env
        elif r < 0.9:
            pre.lines.append(rf"\newtheorem*{{{env}}}{{{name}}}")
            pre.counters[env] = None
        else:
            base = rng.choice([k for k, c in pre.counters.items() if c])
            pre.lines.append(rf"\newtheorem{{{env}}}[{pre.counters[base]}]{{{name}}}")
            pre.counters[env] = pre.counters[base]


def _extras(rng: random.Random, pre: Preamble, *, more: bool) -> None:
    add, top = pre.lines.append, pre.top
    if rng.random() < 0.4:
        add(rf"\numberwithin{{equation}}{{{rng.choice((top, 'section'))}}}")
    if rng.random() < 0.15:
        add(r"\renewcommand{\thetheorem}{\arabic{section}.\Alph{theorem}}")
    if rng.random() < 0.15 and pre.counters.get("lemma") == "lemma":
        add(r"\renewcommand{\thelemma}{L\arabic{lemma}}")
    if rng.random() < 0.2:
        the = rng.choice((r"\arabic{step}", r"S\roman{step}", rf"\the{top}-\alph{{step}}"))
        add(rf"\newcounter{{step}}[{top}]\renewcommand{{\thestep}}{{{the}}}")
        pre.features.add("step")
    if rng.random() < 0.15:
        add(
            rf"\renewcommand{{\thesection}}{{\{rng.choice(('Roman', 'Alph', 'roman'))}{{section}}}}"
        )
    if rng.random() < 0.15:
        add(
            r"\makeatletter\@addtoreset{equation}{section}\makeatother"
            r"\renewcommand{\theequation}{\thesection.\arabic{equation}}"
        )
    if rng.random() < 0.2:
        add(r"\newcommand{\be}{\begin{equation}}\newcommand{\ee}{\end{equation}}")
        pre.features.add("be")
    if rng.random() < 0.2:
        add(r"\newenvironment{thm}{\begin{theorem}}{\end{theorem}}")
        pre.features.add("thm")
    if rng.random() < 0.1 and pre.doc_class != "amsart":
        add(r"\counterwithin{theorem}{section}")
    if more:
        add(r"\newcommand{\knownmacro}{}")
    if rng.random() < 0.3:
        add(r"\newif\ifdraft\draft" + rng.choice(("true", "false")))
        pre.features.add("draft")
    if rng.random() < 0.3:
        add(r"\newcommand{\mythm}[2]{\begin{theorem}\label{#1}#2\end{theorem}}")
        pre.features.add("mythm")
    if rng.random() < 0.2:
        add(r"\newcommand{\drop}[1]{}")
        pre.features.add("drop")
    if rng.random() < 0.15 and r"\usepackage{etoolbox}" in pre.lines:
        add(r"\newtoggle{long}\toggle" + rng.choice(("true", "false")) + "{long}")
        pre.features.add("toggle")


class Body:
    """The blocks of one document, drawn from `rng`; labels `L1`, `L2`, … in order."""

    def __init__(
        self, rng: random.Random, pre: Preamble, *, more: bool, rare: bool = False
    ) -> None:
        self.rng, self.pre, self.more, self.rare_blocks = rng, pre, more, rare
        self.labels = 0
        self.appendix = False
        self.depth = 0

    def label(self) -> str:
        self.labels += 1
        return f"L{self.labels}"

    def theorem(self) -> str:
        env = self.rng.choice(list(self.pre.counters))
        title = "[Title]" if self.rng.random() < 0.2 else ""
        label = self.label()
        inner = "Text." if self.rng.random() < 0.7 else self.display()
        out = f"\\begin{{{env}}}{title}\\label{{{label}}} {inner}\n\\end{{{env}}}\n"
        if self.rng.random() < 0.3 and self.pre.package != "ntheorem":
            out += "\\begin{proof}Trivial.\\end{proof}\n"
        return out

    def display(self) -> str:
        r = self.rng.random()
        if r < 0.35:
            return f"\\begin{{equation}}\\label{{{self.label()}}} a=b\\end{{equation}}\n"
        if r < 0.55:
            rows = []
            for _ in range(self.rng.randint(1, 3)):
                x = self.rng.random()
                if x < 0.25:
                    rows.append(r"a&=b\nonumber")
                elif x < 0.35:
                    rows.append(f"a&=b\\tag{{T{self.labels}}}\\label{{{self.label()}}}")
                else:
                    rows.append(f"a&=b\\label{{{self.label()}}}")
            return "\\begin{align}" + "\\\\\n".join(rows) + "\\end{align}\n"
        if r < 0.7:
            outer, first, second = self.label(), self.label(), self.label()
            return (
                f"\\begin{{subequations}}\\label{{{outer}}}\\begin{{align}}a&=b\\label{{{first}}}"
                f"\\\\ c&=d\\label{{{second}}}\\end{{align}}\\end{{subequations}}\n"
            )
        if r < 0.8:
            return "\\begin{equation*} a=b \\end{equation*}\n"
        if r < 0.9:
            return f"\\begin{{gather}}a=b\\label{{{self.label()}}}\\\\ c=d\\end{{gather}}\n"
        return "\\[ a=b \\]\n"

    def sectioning(self) -> str:
        r = self.rng.random()
        if self.pre.top == "chapter" and r < 0.3:
            return f"\\chapter{{C}}\\label{{{self.label()}}}\n"
        if r < 0.6:
            if self.rng.random() < 0.15:
                return "\\section*{S}\n"
            return f"\\section{{S}}\\label{{{self.label()}}}\n"
        if r < 0.85:
            return f"\\subsection{{SS}}\\label{{{self.label()}}}\n"
        if not self.appendix and self.rng.random() < 0.5:
            self.appendix = True
            return "\\appendix\n"
        return f"\\subsubsection{{SSS}}\\label{{{self.label()}}}\n"

    def counter(self) -> str:
        counters = [c for c in self.pre.counters.values() if c] + ["equation", "section"]
        counter = self.rng.choice(counters)
        command = self.rng.choice(("setcounter", "addtocounter", "stepcounter"))
        if command == "stepcounter":
            return f"\\stepcounter{{{counter}}}\n"
        return f"\\{command}{{{counter}}}{{{self.rng.randint(0, 5)}}}\n"

    def conditional(self) -> str:
        kinds = ["iffalse"] + [k for k in ("draft", "toggle") if k in self.pre.features]
        kind = self.rng.choice(kinds)
        yes, no = self.block(), self.block()
        if kind == "iffalse":
            return f"\\iffalse\n{yes}\\fi\n"
        if kind == "draft":
            return f"\\ifdraft\n{yes}\\else\n{no}\\fi\n"
        return f"\\iftoggle{{long}}{{\n{yes}}}{{\n{no}}}\n"

    def constructs(self) -> str:
        r = self.rng.random()
        features = self.pre.features
        if r < 0.15 and "step" in features:
            return f"\\refstepcounter{{step}}\\label{{{self.label()}}}\n"
        if r < 0.3 and "be" in features:
            return f"\\be\\label{{{self.label()}}} a=b \\ee\n"
        if r < 0.45 and "thm" in features:
            return f"\\begin{{thm}}\\label{{{self.label()}}} W.\\end{{thm}}\n"
        if r < 0.55:
            first, second = self.label(), self.label()
            return (
                f"\\begin{{eqnarray}} a&=&b\\label{{{first}}}\\\\ c&=&d\\nonumber\\\\ "
                f"e&=&f\\label{{{second}}}\\end{{eqnarray}}\n"
            )
        if r < 0.62:
            return f"\\begin{{multline}} a\\\\ =b\\label{{{self.label()}}}\\end{{multline}}\n"
        if r < 0.7:
            return (
                "\\begin{equation}\\begin{split} a&=b\\\\ &=c\\end{split}"
                f"\\label{{{self.label()}}}\\end{{equation}}\n"
            )
        if r < 0.76:
            return (
                f"\\begin{{align*}} a&=b\\tag{{$*$}}\\label{{{self.label()}}}\\\\ c&=d"
                "\\end{align*}\n"
            )
        if r < 0.82:
            return (
                f"\\begin{{alignat}}{{2}} a&=b&\\quad c&=d\\label{{{self.label()}}}"
                "\\end{alignat}\n"
            )
        if r < 0.88:
            items = "".join(f"\\item {self.theorem()}" for _ in range(self.rng.randint(1, 2)))
            return f"\\begin{{enumerate}}\n{items}\\end{{enumerate}}\n"
        if r < 0.94:
            return f"\\begin{{table}}\\caption{{T}}\\label{{{self.label()}}}\\end{{table}}\n"
        return f"\\setcounter{{section}}{{{self.rng.randint(0, 4)}}}\n"

    def arithmetic(self) -> str:
        """Counter arithmetic and the rarer commands (`more`)."""
        r = self.rng.random()
        counters = [c for c in self.pre.counters.values() if c]
        counter = self.rng.choice(counters) if counters else "equation"
        if r < 0.1:
            return f"\\setcounter{{{counter}}}{{\\value{{equation}}}}\n"
        if r < 0.2:
            return f"\\addtocounter{{{counter}}}{{-1}}\n"
        if r < 0.28:
            return f"\\setcounter{{equation}}{{\\numexpr\\value{{{counter}}}+2\\relax}}\n"
        if r < 0.36:
            return (
                f"\\begin{{equation}}\\tag{{\\arabic{{equation}}'}}\\label{{{self.label()}}} a"
                "\\end{equation}\n"
            )
        if r < 0.44 and self.pre.package != "llncs":
            first, second = self.label(), self.label()
            return (
                f"\\begin{{subequations}}\\begin{{equation}}\\label{{{first}}}a\\end{{equation}}"
                f"\\begin{{equation}}\\label{{{second}}}b\\end{{equation}}\\end{{subequations}}\n"
            )
        if r < 0.52:
            return f"\\footnote{{Note.\\label{{{self.label()}}}}}\n"
        if r < 0.6:
            return f"\\ifdefined\\knownmacro {self.theorem()}\\else {self.display()}\\fi\n"
        if r < 0.68:
            return f"\\ifx\\relax\\relax {self.theorem()}\\fi\n"
        if r < 0.76:
            return (
                "\\begin{minipage}{5cm}\\begin{equation}"
                f"\\label{{{self.label()}}}a\\end{{equation}}\\end{{minipage}}\n"
            )
        if r < 0.84:
            return f"\\refstepcounter{{{counter}}}\\label{{{self.label()}}}\n"
        if r < 0.92:
            return f"\\begin{{description}}\\item[x] {self.theorem()}\\end{{description}}\n"
        return f"\\begin{{center}}{self.theorem()}\\end{{center}}\n"

    def rare(self) -> str:
        """Rarer sectioning and counter commands, parts and subfigures (`rare`)."""
        r = self.rng.random()
        if r < 0.12:
            return f"\\setcounter{{secnumdepth}}{{{self.rng.randint(0, 3)}}}\n"
        if r < 0.22:
            return f"\\part{{P}}\\label{{{self.label()}}}\n"
        if r < 0.34:
            return f"\\paragraph{{P}}\\label{{{self.label()}}}\n"
        if r < 0.46:
            return f"\\subsubsection*{{S}}\\label{{{self.label()}}}\n"
        if r < 0.58:
            return (
                "\\begin{figure}\\begin{subfigure}{.4\\linewidth}\\caption{A}"
                f"\\label{{{self.label()}}}\\end{{subfigure}}\\caption{{F}}"
                f"\\label{{{self.label()}}}\\end{{figure}}\n"
            )
        if r < 0.7:
            return f"\\begin{{theorem}}[{{A [b] c}}]\\label{{{self.label()}}} T.\\end{{theorem}}\n"
        if r < 0.82:
            return (
                f"\\begin{{enumerate}}\\item A\\begin{{enumerate}}\\item B\\label{{{self.label()}}}"
                f"\\begin{{enumerate}}\\item C\\label{{{self.label()}}}\\end{{enumerate}}"
                "\\end{enumerate}\\end{enumerate}\n"
            )
        return (
            f"\\begin{{equation}}\\label{{{self.label()}}}\\tag*{{$\\dagger$}} a\\end{{equation}}\n"
        )

    def block(self) -> str:
        self.depth += 1
        try:
            if self.depth > 2:
                return self.theorem()
            if self.rare_blocks and self.rng.random() < 0.12:
                return self.rare()
            r = self.rng.random()
            if r < 0.25:
                return self.theorem()
            if r < 0.33:
                return self.constructs()
            if r < 0.4 and self.more:
                return self.arithmetic()
            if r < 0.55:
                return self.display()
            if r < 0.7:
                return self.sectioning()
            if r < 0.77:
                return self.counter()
            if r < 0.85:
                return self.conditional()
            if r < 0.9 and "mythm" in self.pre.features:
                return f"\\mythm{{{self.label()}}}{{Wrapped.}}\n"
            if r < 0.93 and "drop" in self.pre.features:
                return "\\drop{" + self.theorem() + "}\n"
            if r < 0.97:
                count = self.rng.randint(1, 3)
                items = "".join(f"\\item X\\label{{{self.label()}}}\n" for _ in range(count))
                return f"\\begin{{enumerate}}\n{items}\\end{{enumerate}}\n"
            return (
                "\\begin{figure}\\centering\\rule{1cm}{1cm}\\caption{F}"
                f"\\label{{{self.label()}}}\\end{{figure}}\n"
            )
        finally:
            self.depth -= 1


def document(seed: int, *, wide: bool = False, more: bool = False, rare: bool = False) -> str:
    """The document of `seed`: the same text for the same arguments on every machine."""
    rng = random.Random(seed)
    pre = preamble(rng, wide=wide, more=more)
    if rare:
        pre.lines.append(r"\usepackage{subcaption}")
    body = Body(rng, pre, more=more, rare=rare)
    blocks = [body.sectioning()] if rng.random() < 0.7 else []
    blocks += [body.block() for _ in range(rng.randint(3, 25))]
    return "\n".join(pre.lines) + "\n\\begin{document}\n" + "".join(blocks) + "\\end{document}\n"


@dataclass(frozen=True)
class Outcome:
    """One document against pdflatex: `compiled` False when LaTeX stopped on an error (the
    generator's fault, not preflight's); `wrong`: (label, preflight's number, LaTeX's)."""

    compiled: bool
    labels: int
    wrong: tuple[tuple[str, str | None, str], ...]


def compare(text: str, folder: Path) -> Outcome:
    """Compile `text` as `folder/paper.tex` (the product's confined runner) and compare every
    `L<n>` label's number with preflight's."""
    from paperlint.preflight.inventory import build_inventory
    from paperlint.preflight.latexcheck import same_number
    from paperlint.preflight.latexrun import CompileStatus, compile_project

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "paper.tex").write_text(text, encoding="utf-8")
    compiled = compile_project(folder, "paper.tex", engine="pdflatex", timeout=120)
    if compiled.status is not CompileStatus.OK:
        return Outcome(False, 0, ())
    numbers = {k: v for k, v in compiled.aux.numbers().items() if _OURS.fullmatch(k)}
    found = build_inventory(folder, root="paper.tex").labels
    wrong = tuple(
        (key, found.get(key), number)
        for key, number in numbers.items()
        if found.get(key) is None or not same_number(found[key], number)
    )
    return Outcome(True, len(numbers), wrong)


_OURS = re.compile(r"L\d+")

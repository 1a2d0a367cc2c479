"""Theorem-environment declarations: the environment table (docs/latex-notes.md §2-§5, §12).

`\\newtheorem` in its kernel, amsthm and ntheorem forms, thmtools `\\declaretheorem`, llncs
`\\spnewtheorem`, elsarticle `\\newdefinition`, and the environments that classes and
well-known style files predefine.
"""

from __future__ import annotations

import functools
import re

from paperlint.preflight import texscan
from paperlint.preflight.counters import Counters
from paperlint.preflight.draft import Kind
from paperlint.preflight.record import Record

BOOK_CLASSES = {
    "book",
    "report",
    "amsbook",
    "memoir",
    "scrbook",
    "scrreprt",
    "mwbk",
    "mwrep",
    "ociamthesis",
    "thesis",
    "ucthesis",
    "amsproc-book",
}
_KINDS: list[tuple[Kind, tuple[str, ...]]] = [
    ("corollary", ("corollar", "cor")),
    ("lemma", ("lemma", "lem", "lemme")),
    ("proposition", ("proposition", "prop")),
    ("theorem", ("theorem", "thm", "théorème", "teorema", "satz")),
    ("claim", ("claim", "fact", "observation")),
    ("definition", ("definition", "defn", "def")),
    ("assumption", ("assumption", "assum", "hypothes", "hyp", "condition", "axiom", "setting")),
    ("conjecture", ("conjecture", "conj")),
    ("remark", ("remark", "rem", "note", "notation", "comment")),
    ("example", ("example", "exa", "ex", "exercise", "problem", "question")),
]
_JMLR_SHARED = ("lemma", "proposition", "remark", "corollary", "definition", "conjecture", "axiom")
_LLNCS_OWN = (
    "case",
    "conjecture",
    "corollary",
    "definition",
    "example",
    "exercise",
    "lemma",
    "note",
    "problem",
    "property",
    "proposition",
    "question",
    "solution",
    "remark",
)


class TheoremEnv(Record):
    """One theorem-like environment: its counter and printed title. Unnumbered, its counter
    is None, except ntheorem's, which step a counter they do not print: a `\\label` in one
    writes that hidden number (docs/latex-notes.md §5)."""

    __slots__ = ("name", "title", "counter", "the_key", "numbered")
    name: str
    title: str
    counter: str | None
    the_key: str
    numbered: bool

    def __init__(
        self, name: str, title: str, counter: str | None, the_key: str, numbered: bool = True
    ) -> None:
        self.name = name
        self.title = title
        self.counter = counter
        self.the_key = the_key
        self.numbered = numbered


class Registry(Record):
    """Everything the declarations set up: environments, counters and loaded features."""

    __slots__ = (
        "counters",
        "envs",
        "doc_class",
        "class_options",
        "packages",
        "ntheorem_numbering",
        "notes",
        "only_referenced",
        "calc_setcounter",
        "calc_addtocounter",
    )
    counters: Counters
    envs: dict[str, TheoremEnv]
    doc_class: str
    class_options: set[str]
    packages: set[str]
    ntheorem_numbering: str
    notes: list[tuple[str, str]]
    # `autonum`, or mathtools' `showonlyrefs`: only equations whose label is referenced
    # get a number; the value names the package (they count different reference commands)
    only_referenced: str | None
    # calc makes `\\setcounter` and `\\addtocounter` evaluate expressions; amstext, loaded
    # after calc, puts the kernel's `\\addtocounter` back (calc.sty, amstext.sty)
    calc_setcounter: bool
    calc_addtocounter: bool

    def __init__(self) -> None:
        self.counters = Counters()
        self.envs = {}
        self.doc_class = "article"
        self.class_options = set()
        self.packages = set()
        self.ntheorem_numbering = "arabic"
        self.notes = []
        self.only_referenced = None
        self.calc_setcounter = False
        self.calc_addtocounter = False

    @property
    def book(self) -> bool:
        return self.doc_class in BOOK_CLASSES

    def note(self, code: str, message: str) -> None:
        self.notes.append((code, message))


@functools.lru_cache(maxsize=512)
def kind_of(env: str, title: str) -> Kind:
    """The result kind from the printed title, else from the environment name."""
    for text in (title.lower(), env.lower().rstrip("*")):
        words = re.findall(r"[a-zé]+", text)
        for kind, stems in _KINDS:
            if any(w == s or (len(s) > 3 and w.startswith(s)) for w in words for s in stems):
                return kind
    return "other"


def newtheorem(
    reg: Registry,
    env: str,
    title: str,
    *,
    shared: str | None = None,
    within: str | None = None,
    numbered: bool = True,
    own_the: bool = False,
) -> None:
    """Kernel/amsthm/ntheorem `\\newtheorem` in all forms (docs/latex-notes.md §2); with
    `own_the` (thmtools), a shared counter's environment prints its own `\\the<env>`."""
    env = env.strip()
    counters = reg.counters
    if not numbered and "ntheorem" not in reg.packages:
        reg.envs[env] = TheoremEnv(env, title, None, env, numbered=False)
        return
    if shared and shared.strip():
        shared = shared.strip()
        if not counters.exists(shared):
            counters.new(shared)
            reg.note("unknown-counter", f"\\newtheorem{{{env}}}[{shared}]: counter not declared")
        # the kernel, amsthm and ntheorem print (and label with) `\\the<shared>`, read when
        # the head is printed, so a later `\\renewcommand\\the<env>` changes nothing and one
        # of `\\the<shared>` changes both; thmtools (its sibling, and any `\\newtheorem` once
        # it is loaded) prints `\\the<env>`, which its `\\@counteralias` set with `\\let` to
        # `\\the<shared>` as it was then (docs/latex-notes.md §4)
        own_the = own_the or "thmtools" in reg.packages
        if env != shared:
            counters.the[env] = (
                counters.the.get(shared, f"\\arabic{{{shared}}}") if own_the else f"\\the{shared}"
            )
        reg.envs[env] = TheoremEnv(env, title, shared, env if own_the else shared, numbered)
        _ntheorem_star(reg, env)
        return
    style = reg.ntheorem_numbering if "ntheorem" in reg.packages else "arabic"
    counters.new(env, template=f"\\{style}{{{env}}}")
    if within is not None:
        if not within.strip():
            reg.note(
                "empty-within", f"\\newtheorem{{{env}}}{{…}}[]: empty counter, check with --latex"
            )
        else:
            counters.within(env, within.strip(), style=style)
            own = not reg.packages & {"amsthm", "ntheorem"}  # they replace IEEEtran's
            if reg.doc_class == "IEEEtran" and own and within.strip() == "section":
                # IEEEtran's \@xnthm: a theorem within section prints the section in arabic
                # (`\@IEEEthmcounterinsection`, lettered once the appendices start)
                counters.the[env] = f"\\{IEEE_THM_SECTION}.\\{style}{{{env}}}"
    reg.envs[env] = TheoremEnv(env, title, env, env, numbered)
    _ntheorem_star(reg, env)


def _ntheorem_star(reg: Registry, env: str) -> None:
    # ntheorem defines `env*` too; it still steps the counter (a compiled test printed and
    # labelled "1.3"), so it is numbered like `env`.
    if "ntheorem" in reg.packages and env in reg.envs:
        spec = reg.envs[env]
        star = TheoremEnv(env + "*", spec.title, spec.counter, spec.the_key, spec.numbered)
        reg.envs.setdefault(env + "*", star)


def declaretheorem(reg: Registry, envs: str, keys: dict[str, str]) -> None:
    """thmtools `\\declaretheorem[keys]{env1,env2}[keys]` (docs/latex-notes.md §4)."""
    parent = keys.get("parent") or keys.get("numberwithin") or keys.get("within")
    sibling = keys.get("sibling") or keys.get("numberlike") or keys.get("sharenumber")
    numbered = keys.get("numbered", "yes").strip() != "no" and "unnumbered" not in keys
    numbered = numbered and "starred" not in keys
    for env in texscan.split_keys(envs):
        title = (
            keys.get("title")
            or keys.get("name")
            or keys.get("heading")
            or env[:1].upper() + env[1:]
        )
        newtheorem(reg, env, title, shared=sibling, within=parent, numbered=numbered, own_the=True)


def spnewtheorem(
    reg: Registry,
    env: str,
    title: str,
    shared: str | None,
    within: str | None,
    *,
    numbered: bool = True,
) -> None:
    """llncs `\\spnewtheorem`: like `\\newtheorem`, with fonts as extra arguments."""
    newtheorem(reg, env, title, shared=shared, within=within, numbered=numbered)


IEEE_THM_SECTION = "@IEEEthmcounterinsection"


ENUM_PREFIXES = {
    "p@enumi": "",
    "p@enumii": "\\theenumi",
    "p@enumiii": "\\theenumi(\\theenumii)",
    "p@enumiv": "\\p@enumiii\\theenumiii",
}
"""The kernel's `\\p@enumii` … (latex.ltx, the same in article, report and book): an item's
label at depth 3 is `1(a)i`."""


def apply_class(reg: Registry, name: str, options: set[str]) -> None:
    """The class's counters and the theorem environments it predefines (docs/latex-notes.md §12)."""
    reg.doc_class = name
    reg.class_options = options
    _standard_counters(reg.counters, book=reg.book)
    for implied in IMPLIED_PACKAGES.get(name, ()):
        apply_package(reg, implied, set())
    if name == "llncs":
        _llncs(reg, options)
    elif name in ("jmlr", "colt", "pmlr") or name.startswith(("colt", "jmlr", "alt")):
        _jmlr_family(reg)
    elif name in ("amsart", "amsbook", "amsproc", "imsart"):
        reg.packages.add("amsthm")
        if name in ("amsart", "amsbook", "amsproc"):
            reg.counters.the["part"] = "\\arabic{part}"  # amsart.cls 2.20.6
        if name == "amsbook":
            _amsbook(reg.counters)
    elif name in ("scrreprt", "scrbook"):
        # KOMA-Script 3.x (scrkernel-miscellaneous.dtx): `\\theequation` is
        # `\\thechapter.\\arabic{equation}` even before the first chapter (`0.1`)
        reg.counters.the["equation"] = "\\thechapter.\\arabic{equation}"
    elif name == "memoir":
        # memoir.cls 3.7.19: `\\setsecnumdepth{section}`; figures and tables print
        # `\\thechapter.\\arabic{…}` even before the first chapter (`0.1`)
        reg.counters.set("secnumdepth", 1)
        for counter in ("figure", "table"):
            reg.counters.the[counter] = f"\\thechapter.\\arabic{{{counter}}}"
    elif name == "IEEEtran":
        # IEEEtran.cls 1.8b: I, I-A, I-A1, I-A1a (compsoc: 1, 1.1, 1.1.1, 1.1.1.1), numbered
        # down to \\paragraph but in technotes and compsoc conference papers
        the = reg.counters.the
        if "compsoc" in options:
            the["section"] = "\\arabic{section}"
            the["paragraph"] = "\\thesubsubsection.\\arabic{paragraph}"
        else:
            the["section"] = "\\Roman{section}"
            the["subsection"] = "\\thesection-\\Alph{subsection}"
            the["subsubsection"] = "\\thesubsection\\arabic{subsubsection}"
            the["paragraph"] = "\\thesubsubsection\\alph{paragraph}"
        technote = "technote" in options or {"compsoc", "conference"} <= options
        reg.counters.set("secnumdepth", 3 if technote else 4)
        reg.counters.macros[IEEE_THM_SECTION] = "\\arabic{section}"
        if "compsoc" not in options:
            the["table"] = "\\Roman{table}"  # IEEEtran.cls 1.8b: tables in roman but compsoc's
    elif name in REVTEX_CLASSES:
        _revtex(reg, options)


REVTEX_CLASSES = ("revtex4", "revtex4-1", "revtex4-2")


def _amsbook(counters: Counters) -> None:
    """amsbook.cls 2.20.6: chapters, but sections, figures and tables print without the
    chapter (`\\thesection` is `\\arabic{section}`; figures and tables still restart per
    chapter), equations run through the whole book, and `secnumdepth` is 3."""
    counters.the["section"] = "\\arabic{section}"
    counters.the["figure"] = "\\arabic{figure}"
    counters.the["table"] = "\\arabic{table}"
    counters.the["equation"] = "\\arabic{equation}"
    counters.remove_reset("equation", "chapter")
    counters.set("secnumdepth", 3)


def _revtex(reg: Registry, options: set[str]) -> None:
    """revtex4-x (APS/AIP): Roman sections and tables, lettered subsections, secnumdepth 4; Physical
    Review Letters (`prl`) numbers no section at all (aps4-2.rtx: secnumdepth -\\maxdimen).
    An equation prints `\\theequation@prefix\\arabic{equation}`, the prefix empty, or `2.`
    and restarting per section with the option `eqsecnum` (revtex4-2.cls 4.2e)."""
    counters = reg.counters
    counters.the["section"] = "\\Roman{section}"
    counters.the["subsection"] = "\\Alph{subsection}"
    counters.the["subsubsection"] = "\\arabic{subsubsection}"
    counters.the["paragraph"] = "\\alph{paragraph}"
    counters.set("secnumdepth", -1000 if "prl" in options else 4)
    counters.the["table"] = "\\Roman{table}"
    counters.the["equation"] = f"\\{REVTEX_EQUATION_PREFIX}\\arabic{{equation}}"
    counters.macros[REVTEX_EQUATION_PREFIX] = ""
    if "eqsecnum" in options:
        counters.add_reset("equation", "section")
        counters.macros[REVTEX_EQUATION_PREFIX] = "\\arabic{section}."


REVTEX_EQUATION_PREFIX = "theequation@prefix"


# Packages (and classes) that load another whose behaviour preflight models, in the order of
# their `\\RequirePackage` lines in TeX Live: `thm-restate` loads `thmtools`, whose unnumbered
# theorems step a dummy counter, so a `\\label` in one writes an empty number; mathtools and
# the jmlr class load calc before amsmath, whose amstext then undoes calc's `\\addtocounter`.
IMPLIED_PACKAGES: dict[str, tuple[str, ...]] = {
    "thm-restate": ("thmtools",),
    "mathtools": ("calc", "amsmath"),
    "empheq": ("mathtools",),
    "breqn": ("amsmath", "calc"),
    "amsmath": ("amstext",),
    "todonotes": ("calc",),
    "pdfpages": ("calc",),
    "jmlr": ("calc", "amsmath"),
    "amsart": ("amsmath",),
    "amsbook": ("amsmath",),
    "amsproc": ("amsmath",),
}


def apply_package(reg: Registry, name: str, options: set[str]) -> None:
    """Side effects of well-known packages that are not in the project folder."""
    first_load = name not in reg.packages
    reg.packages.add(name)
    if first_load and name == "calc":
        reg.calc_setcounter = reg.calc_addtocounter = True
    elif first_load and name == "amstext":
        reg.calc_addtocounter = False
    for implied in IMPLIED_PACKAGES.get(name, ()):
        if implied not in reg.packages:
            apply_package(reg, implied, set())
    if name == "jmlr2e":
        reg.packages.add("ntheorem")
        _jmlr_family(reg, extra=("assumption",))
    if name == "autonum" or (name == "mathtools" and "showonlyrefs" in options):
        reg.only_referenced = name


GUESSABLE = {
    "theorem",
    "lemma",
    "proposition",
    "corollary",
    "definition",
    "remark",
    "example",
    "conjecture",
    "assumption",
    "claim",
    "fact",
    "thm",
    "lem",
    "prop",
    "cor",
    "defn",
    "rem",
    "conj",
    "assum",
    "observation",
    "hypothesis",
}


def guess_undeclared(reg: Registry, env: str) -> bool:
    """A theorem-like environment nobody declared (a vendored class we lack): guess that it
    shares `theorem`'s counter when there is one, else has its own. True when guessed."""
    base = env.rstrip("*")
    if base not in GUESSABLE or base in reg.envs:
        return False
    title = {
        "thm": "Theorem",
        "lem": "Lemma",
        "prop": "Proposition",
        "cor": "Corollary",
        "defn": "Definition",
        "rem": "Remark",
        "conj": "Conjecture",
    }.get(base, base.capitalize())
    shared = "theorem" if "theorem" in reg.envs and base != "theorem" else None
    newtheorem(reg, env, title, shared=shared, numbered=not env.endswith("*"))
    return True


def apply_begin_document(reg: Registry) -> None:
    if (
        reg.doc_class == "acmart"
        and "acmthm=false" not in reg.class_options
        and "theorem" not in reg.envs
    ):
        newtheorem(reg, "theorem", "Theorem", within="section")
        for env in ("conjecture", "proposition", "lemma", "corollary", "example", "definition"):
            newtheorem(reg, env, env.capitalize(), shared="theorem")


def _jmlr_family(reg: Registry, extra: tuple[str, ...] = ()) -> None:
    newtheorem(reg, "example", "Example")
    newtheorem(reg, "theorem", "Theorem")
    for env in (*_JMLR_SHARED, *extra):
        newtheorem(reg, env, env.capitalize(), shared="theorem")


def _llncs(reg: Registry, options: set[str]) -> None:
    """llncs.cls 2.22: its theorems (below), and `secnumdepth` 2: `\\subsubsection` unnumbered."""
    reg.counters.set("secnumdepth", 2)
    within = "section" if "envcountsect" in options else None
    newtheorem(reg, "theorem", "Theorem", within=within)
    for env in _LLNCS_OWN:
        shared = "theorem" if "envcountsame" in options else None
        newtheorem(reg, env, env.capitalize(), shared=shared, within=None if shared else within)
    newtheorem(reg, "claim", "Claim", numbered=False)


def _standard_counters(counters: Counters, *, book: bool) -> None:
    counters.new("part", template="\\Roman{part}")
    if book:
        counters.new("chapter")
        counters.new("section", "chapter", "\\thechapter.\\arabic{section}")
        counters.new(
            "equation", "chapter", "\\ifnum\\c@chapter>\\z@ \\thechapter.\\fi\\arabic{equation}"
        )
        counters.new(
            "figure", "chapter", "\\ifnum\\c@chapter>\\z@ \\thechapter.\\fi\\arabic{figure}"
        )
        counters.new("table", "chapter", "\\ifnum\\c@chapter>\\z@ \\thechapter.\\fi\\arabic{table}")
    else:
        counters.new("section")
        counters.new("equation")
        counters.new("figure")
        counters.new("table")
    counters.new("subsection", "section", "\\thesection.\\arabic{subsection}")
    counters.new("subsubsection", "subsection", "\\thesubsection.\\arabic{subsubsection}")
    counters.new("paragraph", "subsubsection", "\\thesubsubsection.\\arabic{paragraph}")
    counters.new("subparagraph", "paragraph", "\\theparagraph.\\arabic{subparagraph}")
    counters.new("footnote", "chapter" if book else None)  # book.cls: per chapter
    counters.new("page")
    # \\section and its kin number only down to this depth (book 2, article 3)
    counters.new("secnumdepth")
    counters.set("secnumdepth", 2 if book else 3)
    for level, style in (("i", "arabic"), ("ii", "alph"), ("iii", "roman"), ("iv", "Alph")):
        counters.new("enum" + level, template=f"\\{style}{{enum{level}}}")
    # what a label in an item writes before `\\the<level>` (the kernel's `\\p@enum…`)
    counters.macros.update(ENUM_PREFIXES)

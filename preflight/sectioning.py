"""Sectioning, `\\appendix` (per class), captions and enumerate items in the document walk."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from paperlint.preflight import declarations as decl
from paperlint.preflight import texscan
from paperlint.preflight.walkstate import Frame, Owner

if TYPE_CHECKING:
    from paperlint.preflight.numbering import Walker

ENUM_LEVELS = ("i", "ii", "iii", "iv")
FLOATS = {
    "figure": "figure",
    "table": "table",
    "wrapfigure": "figure",
    "wraptable": "table",
    "SCfigure": "figure",
    "sidewaysfigure": "figure",
    "sidewaystable": "table",
    "algorithm": "algorithm",  # algorithm's float: its caption is not its enclosing figure's
    "algorithm2e": "algocf",  # algorithm2e's, with its option algo2e
}


def section(walker: Walker, text: str, m: re.Match[str]) -> int:
    name = m.group(1)
    if not walker.in_document or name not in walker.reg.counters.values:
        return m.end()
    if name == "section" and walker.sections_destroyed:
        return m.end()  # IEEEtran's `\\@IEEEdestroythesectionargument` (`appendix` below)
    if m.group(2):
        # imsart: an unnamed appendix `\\section*` still makes the section "A".
        imsart = walker.appendix_active and walker.reg.doc_class == "imsart" and name == "section"
        if imsart and walker.reg.counters.values["section"] == 0:
            walker.reg.counters.set("section", 1)
        if walker.reg.doc_class in KOMA_CLASSES and name not in ("part", "chapter"):
            # KOMA-Script (3.38) zeroes what restarts with the level, as `\\addsec` does: a
            # theorem after `\\section*` is 1.1 again; not after `\\chapter*` (pdflatex,
            # fixture `class_koma_starred`)
            walker.reg.counters.reset_children(name)
        return m.end()
    if name == "chapter" and not walker.main_matter:
        if walker.reg.doc_class in KOMA_CLASSES:
            walker.reg.counters.reset_children("chapter")  # KOMA still resets, as `\\addchap`
        return m.end()  # book: chapters in \\frontmatter and \\backmatter are unnumbered
    counters = walker.reg.counters
    if LEVELS[name] - (name == "part" and walker.reg.book) > counters.value("secnumdepth"):
        if walker.reg.doc_class in KOMA_CLASSES and name not in ("part", "chapter"):
            counters.reset_children(name)  # KOMA: as its `\\section*` (above)
        return m.end()  # deeper than \\secnumdepth: printed unnumbered, as `\\section*`
    counters.step(name)
    number = counters.render(name)
    if walker.reg.doc_class in decl.REVTEX_CLASSES and name in _REVTEX_REF_PREFIX:
        # revtex's \\p@subsection is `\\thesection\\,`: a label writes `I\\,A`
        parents = _REVTEX_REF_PREFIX[name]
        number = "".join(counters.render(p) + "\\," for p in parents) + number
    walker.current = Owner(number, "section")
    return m.end()


_REVTEX_REF_PREFIX = {
    "subsection": ("section",),
    "subsubsection": ("section", "subsection"),
    "paragraph": ("section", "subsection", "subsubsection"),
}


# LaTeX's sectioning levels (a book's \\part is -1)
LEVELS = {
    "part": 0,
    "chapter": 0,
    "section": 1,
    "subsection": 2,
    "subsubsection": 3,
    "paragraph": 4,
    "subparagraph": 5,
}


KOMA_CLASSES = ("scrartcl", "scrreprt", "scrbook")


def koma_unnumbered(walker: Walker, text: str, m: re.Match[str]) -> int:
    """KOMA-Script's `\\addchap`/`\\addsec`: unnumbered, but unlike `\\chapter*` they zero
    the counters reset by the chapter or section (a compiled test: `Theorem 1.1` again)."""
    _, pos = texscan.read_star(text, m.end())
    level = "chapter" if m.group(1) == "addchap" else "section"
    if walker.in_document and level in walker.reg.counters.values:
        walker.reg.counters.reset_children(level)
    return pos


def matter(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\frontmatter`, `\\mainmatter`, `\\backmatter` (book-like classes)."""
    if walker.in_document:
        walker.main_matter = m.group(1) == "mainmatter"
    return m.end()


def appendix(walker: Walker, text: str, m: re.Match[str]) -> int:
    if walker.in_document:
        apply_appendix(walker, sub=False)
        if walker.reg.doc_class == "IEEEtran" and m.group(1) == "appendix":
            # IEEEtran's one appendix (`\\appendix`, not `\\appendices`) is the section "A",
            # its subsections A, B, …, and a `\\section{…}` in it is thrown away, numbering
            # nothing (IEEEtran.cls 1.8b, `\\appendix`)
            walker.sections_destroyed = True
            counters = walker.reg.counters
            counters.set("section", 0)
            counters.step("section")  # what restarts with the section restarts
            counters.the["section"] = "A"
            counters.the["subsection"] = "\\Alph{subsection}"
            walker.current = Owner("A", "section")  # its `\\refstepcounter{section}`
        if walker.reg.doc_class == "elsarticle" and m.group(1) == "appendix":
            # elsarticle's `\\appendix` (elsarticle.cls 3.3; not the appendix package's
            # environment): sections print as `Appendix A` (and so does whatever numbers
            # within them), equations restart per section as `A.1`, figures and tables print
            # as `A.2` without restarting (docs/latex-notes.md §12)
            counters = walker.reg.counters
            counters.set("equation", 0)
            counters.add_reset("equation", "section")
            counters.the["section"] = "Appendix~\\Alph{section}"
            for name in ("equation", "figure", "table"):
                counters.the[name] = f"\\Alph{{section}}.\\arabic{{{name}}}"
    return m.end()


def apply_appendix(walker: Walker, *, sub: bool) -> None:
    counters = walker.reg.counters
    walker.appendix_active = True
    if sub:
        counters.set("subsection", 0)
        counters.the["subsection"] = "\\thesection.\\Alph{subsection}"
    elif walker.reg.book:
        counters.set("chapter", 0)
        counters.set("section", 0)
        counters.the["chapter"] = "\\Alph{chapter}"
    else:
        counters.set("section", 0)
        counters.set("subsection", 0)
        counters.the["section"] = "\\Alph{section}"
    if walker.reg.doc_class in decl.REVTEX_CLASSES:
        # revtex's \\appendix (revtex4-2.cls 4.2e): equations restart per section, their
        # prefix the section (`A1`, unless the paper numbers them its own way, as amsmath's
        # `\\numberwithin` does: `A.1`), subsections `1`, subsubsections `a`
        counters.add_reset("equation", "section")
        counters.macros[decl.REVTEX_EQUATION_PREFIX] = "\\thesection"
        counters.the["subsection"] = "\\arabic{subsection}"
        counters.the["subsubsection"] = "\\alph{subsubsection}"
    if walker.reg.doc_class == "IEEEtran":
        counters.macros[decl.IEEE_THM_SECTION] = "\\Alph{section}"


CAPTION_PACKAGES = frozenset({"caption", "subcaption"})
# floats where the caption package makes a label before the caption write no number (pdflatex
# 2026-12-04: figure, table, wrapfigure, algorithm's and algorithm2e's floats)
XREF_FLOATS = frozenset({"figure", "table", "wrapfigure", "wraptable", "algorithm", "algorithm2e"})


def no_caption_yet(walker: Walker, name: str) -> bool:
    """Whether a float `name` starts with the caption package's `\\@currentlabel`: a label
    before its caption writes `\\caption@xref{key}{ on input line N}` (caption.sty,
    `\\caption@reset@currentlabel`), which `\\ref` prints as ??."""
    return name.rstrip("*") in XREF_FLOATS and bool(walker.reg.packages & CAPTION_PACKAGES)


XREF = "xref"
"""The owner kind of such a label (its number is made when its line is known)."""


SUBFLOATS = frozenset({"subfigure", "subtable"})
"""subcaption's environments: a caption in one numbers a part of its float (`1a`)."""


def caption(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\caption` in a float, or in a subcaption environment inside one."""
    found = _enclosing_float(walker)
    if walker.in_document and found is not None:
        frame, sub = found
        _float_caption(walker, frame, FLOATS[frame.name.rstrip("*")], sub=sub)
    return m.end()


def _enclosing_float(walker: Walker) -> tuple[Frame, bool] | None:
    """The innermost float the walk is in, and whether it is inside a part of it (a
    longtable's caption is its own: none)."""
    sub = False
    for frame in reversed(walker.frames):
        if frame.family == "longtable":
            return None
        name = frame.name.rstrip("*")
        sub = sub or name in SUBFLOATS
        if name in FLOATS:
            return frame, sub
    return None


def caption_of(walker: Walker, text: str, m: re.Match[str]) -> int:
    """capt-of's and caption's `\\captionof{type}`: a caption of that type's counter, in a
    float or out of one; `\\captionof*` is unnumbered (pdflatex 2026-12-04, fixture
    `captionof_longtable`)."""
    group = texscan.read_group(text, m.end())  # the walk's match holds the star
    if group is None:
        return m.end()
    counter = group[0].strip()
    if walker.in_document and not m.group(2) and counter:
        step_float(walker, counter)
    return group[1]


def float_contents(walker: Walker, text: str, m: re.Match[str]) -> int:
    """The jmlr class's `\\floatconts{label}{caption}{contents}` (jmlrutils.sty 2.14): in a
    figure the contents, the caption, then `\\label{label}`; elsewhere the caption, the label,
    then the contents. The label writes the caption's number (fixture `jmlr_floatconts`)."""
    spans, after = _spans(text, m.end(), 3)
    if not walker.in_document or len(spans) < 3 or not walker.can_nest():
        return m.end()
    key_span, caption_span, contents_span = spans
    found = _enclosing_float(walker)
    figure = found is not None and FLOATS[found[0].name.rstrip("*")] == "figure"
    parts = (contents_span, caption_span, None) if figure else (caption_span, None, contents_span)
    for span in parts:
        if span is None:
            walker.record_label(
                text[key_span[0] : key_span[1]].strip(), walker.current, walker.at(key_span[0])
            )
        else:
            walker.scan_inside(text, span[0], span[1])
    return after


def _spans(text: str, pos: int, count: int) -> tuple[list[tuple[int, int]], int]:
    """Where the contents of the next `count` (or fewer) `{…}` arguments lie, and the end."""
    spans = []
    for _ in range(count):
        span = texscan.read_group_span(text, pos)
        if span is None or not text.startswith("{", texscan.skip_spaces(text, pos)):
            break
        spans.append((span[0], span[1]))
        pos = span[2]
    return spans, pos


def step_float(walker: Walker, counter: str) -> None:
    """`\\refstepcounter` of a float's counter: the labels that follow write its number."""
    counters = walker.reg.counters
    if not counters.exists(counter):
        counters.new(counter)
    counters.step(counter)
    walker.current = Owner(counters.render(counter), "float")


def sub_caption(walker: Walker, text: str, m: re.Match[str]) -> int:
    """subcaption's `\\subcaption` and `\\subcaptionbox`, subfig's `\\subfloat`: a part of the
    float they stand in (the label in their arguments writes `1a`)."""
    found = _enclosing_float(walker)
    if walker.in_document and found is not None:
        _float_caption(walker, found[0], FLOATS[found[0].name.rstrip("*")], sub=True)
    return m.end()


def old_subfigure(walker: Walker, text: str, m: re.Match[str]) -> int:
    """The subfigure package's `\\subfigure[…]{…}`: a part numbered `2(a)`, the figure number
    to come and a letter, without stepping the figure; the letters restart when a figure
    caption steps it (pdflatex 2026-12-04: parts before, after and without the caption)."""
    found = _enclosing_float(walker)
    if not walker.in_document or found is None or FLOATS[found[0].name.rstrip("*")] != "figure":
        return m.end()
    counters = walker.reg.counters
    if not counters.exists("subfigure"):
        counters.new("subfigure", template="\\alph{subfigure}")
    counters.step("subfigure")
    value = counters.value("figure")
    counters.set("figure", value + 1)
    number = counters.render_template("\\thefigure(\\thesubfigure)")
    counters.set("figure", value)
    walker.current = Owner(number, "float")
    return m.end()


def _float_caption(walker: Walker, frame: Frame, counter: str, *, sub: bool) -> None:
    """A caption numbers its float: each `\\caption` steps the float's counter, except that a
    float's first part caption steps it for the float, and the float's own caption after its
    parts does not step it again (the caption package, pdflatex 2026-12-04: a float holding
    only parts still takes a number). A part is the float's number and a letter (`1a`)."""
    counters = walker.reg.counters
    if not counters.exists(counter):
        counters.new(counter)
    part = "sub" + counter
    if not counters.exists(part):
        counters.new(part, template=f"\\alph{{{part}}}")
    numbered = frame.restore.get("caption")  # "part": stepped by a part; "float": by its own
    if not (sub and numbered) and numbered != "part":
        counters.step(counter)
        counters.set(part, 0)
    if sub:
        counters.step(part)
        number = counters.render_template(f"\\the{counter}\\the{part}")
    else:
        number = counters.render(counter)
    frame.restore["caption"] = "part" if sub and numbered != "float" else "float"
    walker.current = Owner(number, "float")


def item(walker: Walker, text: str, m: re.Match[str]) -> int:
    if not walker.in_document or not 1 <= walker.enum_depth <= 4:
        return m.end()
    optional = texscan.read_optional(text, m.end(), newline=False)
    if optional is not None:
        return optional[1]
    level = "enum" + ENUM_LEVELS[walker.enum_depth - 1]
    counters = walker.reg.counters
    counters.step(level)
    number = counters.render_template(f"\\p@{level}\\the{level}")
    walker.current = Owner(number, "item", walker.enclosing_result())
    return m.end()


def footnote(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\footnote[n]{... \\label{x} ...}`: a label in a footnote writes the footnote's
    number (the counter steps unless `[n]` gives it)."""
    if not walker.in_document or not walker.can_nest():
        return m.end()
    optional = texscan.read_optional(text, m.end())
    pos = optional[1] if optional else m.end()
    start = texscan.skip_spaces(text, pos)
    group = texscan.read_group(text, pos)
    if group is None or not text.startswith("{", start):
        return pos
    counters = walker.reg.counters
    if optional is not None and optional[0].strip().isdigit():
        number = optional[0].strip()
    else:
        counters.step("footnote")
        number = counters.render("footnote")
    saved = walker.current
    walker.current = Owner(number, "other", walker.enclosing_result())
    walker.scan_inside(text, start + 1, start + 1 + len(group[0]))
    walker.current = saved
    return group[1]

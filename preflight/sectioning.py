"""Sectioning, `\\appendix` (per class), captions and enumerate items in the document walk."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from paperlint.preflight import texscan
from paperlint.preflight.walkstate import Owner

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
}


def section(walker: Walker, text: str, m: re.Match[str]) -> int:
    name = m.group(1)
    if not walker.in_document or name not in walker.reg.counters.values:
        return m.end()
    if m.group(2):
        # imsart: an unnamed appendix `\\section*` still makes the section "A".
        imsart = walker.appendix_active and walker.reg.doc_class == "imsart" and name == "section"
        if imsart and walker.reg.counters.values["section"] == 0:
            walker.reg.counters.set("section", 1)
        return m.end()
    if name == "chapter" and not walker.main_matter:
        return m.end()  # book: chapters in \\frontmatter and \\backmatter are unnumbered
    counters = walker.reg.counters
    counters.step(name)
    walker.current = Owner(counters.render(name), "section")
    return m.end()


def matter(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\frontmatter`, `\\mainmatter`, `\\backmatter` (book-like classes)."""
    if walker.in_document:
        walker.main_matter = m.group(1) == "mainmatter"
    return m.end()


def appendix(walker: Walker, text: str, m: re.Match[str]) -> int:
    if walker.in_document:
        apply_appendix(walker, sub=False)
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


def caption(walker: Walker, text: str, m: re.Match[str]) -> int:
    float_env = next(
        (f.name for f in reversed(walker.frames) if f.name.rstrip("*") in FLOATS), None
    )
    if walker.in_document and float_env is not None:
        counter = FLOATS[float_env.rstrip("*")]
        walker.reg.counters.step(counter)
        walker.current = Owner(walker.reg.counters.render(counter), "float")
    return m.end()


def item(walker: Walker, text: str, m: re.Match[str]) -> int:
    if not walker.in_document or not 1 <= walker.enum_depth <= 4:
        return m.end()
    optional = texscan.read_optional(text, m.end(), newline=False)
    if optional is not None:
        return optional[1]
    level = "enum" + ENUM_LEVELS[walker.enum_depth - 1]
    counters = walker.reg.counters
    counters.step(level)
    prefix = "".join(counters.render("enum" + lv) for lv in ENUM_LEVELS[: walker.enum_depth - 1])
    walker.current = Owner(prefix + counters.render(level), "item", walker.enclosing_result())
    return m.end()


def footnote(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\footnote[n]{... \\label{x} ...}`: a label in a footnote writes the footnote's
    number (the counter steps unless `[n]` gives it)."""
    if not walker.in_document:
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
    walker.scan(text, start + 1, start + 1 + len(group[0]))
    walker.current = saved
    return group[1]

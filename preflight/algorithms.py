"""Line labels in algorithms: algorithmicx's `algorithmic` (docs/preflight.md, "Algorithm
lines"; the rules are read from algorithmicx.sty and algpseudocode.sty 1.2 and checked with
pdflatex, fixture `algorithmicx_lines`).

In `algorithmic`, `\\@currentlabel` is `\\theALG@line` all along: a label writes the number
of the last line. The counter restarts at 0 with each environment (`\\algrestore` sets it to
the stored one) and steps at each entity with a text (`\\State`, `\\For`, `\\EndFor`, …, and
those `\\algdef` and its short forms define): an entity without a text (`\\algtext*`,
`\\algnotext`, algpseudocode's `noend`, an `n` flag) makes an unnumbered `\\item[]`, as
`\\Statex`, `\\Require` and `\\Ensure` do. Whether a line number is printed (`[1]`) does not
change the counter.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from paperlint.preflight import texscan
from paperlint.preflight.walkstate import Owner

if TYPE_CHECKING:
    from paperlint.preflight.numbering import Walker

LINE = "ALG@line"
ALGORITHMICX = frozenset({"algorithmicx", "algpseudocode", "algcompatible"})
"""Packages that load algorithmicx (its `algorithmic`, not the algorithms bundle's)."""

# algpseudocode's entities (all with a text), and those its `noend` option leaves without
PSEUDOCODE = (
    "While",
    "EndWhile",
    "For",
    "EndFor",
    "ForAll",
    "Loop",
    "EndLoop",
    "Repeat",
    "Until",
    "If",
    "ElsIf",
    "Else",
    "EndIf",
    "Procedure",
    "EndProcedure",
    "Function",
    "EndFunction",
)
PSEUDOCODE_NOEND = ("EndWhile", "EndFor", "EndLoop", "EndIf", "EndProcedure", "EndFunction")

# `\\algdef`'s short forms: the flags they pass it
SHORT_FORMS = {
    "algblock": "se",
    "algcblock": "ce",
    "algloop": "sl",
    "algcloop": "cl",
    "algsetblock": "seLi",
    "algsetcblock": "ceLi",
    "algblockx": "SxE",
    "algblockdefx": "SE",
    "algcblockx": "CxE",
    "algcblockdefx": "CE",
    "algsetblockx": "SxELi",
    "algsetblockdefx": "SELi",
    "algsetcblockx": "CxELi",
    "algsetcblockdefx": "CELi",
    "algloopdefx": "Sl",
    "algcloopx": "xCl",
    "algcloopdefx": "Cl",
}


def entities(walker: Walker) -> frozenset[str]:
    """The entities that print a numbered line in an `algorithmic` starting now."""
    texts = {"State": True}
    if "algpseudocode" in walker.reg.packages:
        texts.update(dict.fromkeys(PSEUDOCODE, True))
        if "noend" in walker.options.passed.get("algpseudocode", set()):
            texts.update(dict.fromkeys(PSEUDOCODE_NOEND, False))
    texts.update(walker.algorithmic_texts)
    return frozenset(name for name, text in texts.items() if text)


def algdef(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\algdef{flags}[block]{…}…` and its short forms: the entities it names get a text,
    unless an `n` flag says otherwise (the texts that follow are read on as preamble text)."""
    name = m.group(1)
    pos = m.end()
    if name == "algdef":
        group = texscan.read_group(text, pos)
        if group is None:
            return pos
        flags, pos = group
    else:
        flags = SHORT_FORMS[name]
    optional = texscan.read_optional(text, pos)
    if optional is not None:
        pos = optional[1]
    # its arguments, in order: `c` an old block and a start entity, `s` a start entity, `e`
    # an end entity (credits and indent, numbers, come after); `n` before the letter: that
    # entity has no text
    plain = flags.replace("x", "")
    lowered = plain.lower()
    for letter in ("c" if "c" in lowered else "s", "e"):
        index = lowered.find(letter)
        if index < 0:
            continue
        if letter == "c":
            old = texscan.read_group(text, pos)
            pos = old[1] if old is not None else pos
        group = texscan.read_group(text, pos)
        if group is None:
            return pos
        pos = group[1]
        silent = index > 0 and plain[index - 1] == "n"
        walker.algorithmic_texts[group[0].strip()] = not silent
    return pos


def algtext(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\algtext*{X}`, `\\algnotext{X}`: X prints no line; `\\algtext{X}`,
    `\\algrenewtext{X}`, `\\algdefaulttext{X}`: it prints one. With a `[block]`, the text is
    that block's alone: not followed."""
    name, star = m.group(1), bool(m.group(2))
    optional = texscan.read_optional(text, m.end())
    group = texscan.read_group(text, optional[1] if optional else m.end())
    if group is None:
        return m.end()
    if optional is None:
        silent = name == "algnotext" or (name == "algtext" and star)
        walker.algorithmic_texts[group[0].strip()] = not silent
    return group[1]


def begin_algorithmic(walker: Walker) -> None:
    """`\\begin{algorithmic}`: the line counter restarts, labels write it."""
    counters = walker.reg.counters
    if not counters.exists(LINE):
        counters.new(LINE)
    counters.set(LINE, 0)
    walker.line_entities = entities(walker)
    _own(walker)


def end_algorithmic(walker: Walker) -> None:
    walker.line_entities = frozenset()


def line(walker: Walker, text: str, m: re.Match[str]) -> int:
    """An entity with a text: the next line."""
    walker.reg.counters.step(LINE)
    _own(walker)
    return m.end()


def store(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\algstore{name}` keeps the line number, `\\algrestore{name}` puts it back."""
    group = texscan.read_group(text, m.end())
    if group is None or not walker.line_entities:
        return m.end()
    counters = walker.reg.counters
    if m.group(1) == "algstore":
        walker.algorithmic_stored[group[0].strip()] = counters.value(LINE)
    elif group[0].strip() in walker.algorithmic_stored:
        counters.set(LINE, walker.algorithmic_stored[group[0].strip()])
        _own(walker)
    return group[1]


def _own(walker: Walker) -> None:
    number = walker.reg.counters.render(LINE)
    walker.current = Owner(number, "other", walker.enclosing_result())

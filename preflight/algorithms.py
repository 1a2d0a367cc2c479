"""Line labels in algorithms: algorithmicx's `algorithmic` and algorithm2e's algorithms
(docs/preflight.md, "Algorithm lines"; the rules are read from algorithmicx.sty,
algpseudocode.sty 1.2 and algorithm2e.sty 5.2 and checked with pdflatex, fixtures
`algorithmicx_lines` and `algorithm2e_lines`; algorithm2e's rules are below).

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

from paperlint.preflight import lazyre, sectioning, texscan
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


# -- algorithm2e ----------------------------------------------------------------------------
#
# With `linesnumbered` (or `\LinesNumbered` before the algorithm) algorithm2e numbers every
# paragraph of an algorithm (`\everypar{\nl}`, algorithm2e.sty 5.2): a line is a paragraph,
# begun by the first thing typeset after the last one ended. `\;`, a blank line and `\par`
# end one; a block command continues the paragraph its keyword stands in, its body starts
# and ends paragraphs, and its `end` is a line of its own unless `noend`, `\SetAlgoNoEnd`,
# `vlined` or `\SetAlgoVlined` drop it (a u-command has none). A one-line command (`\lIf`)
# ends with `\strut\par`: after a `\;` inside it, one more (empty) line. Inputs (`\KwIn`,
# `\SetKwInOut`'s) and comments (`\tcc`) are paragraphs without a number; `\nl` steps the
# counter once more. The counter restarts with each algorithm (`resetcount`, the default).
# `\LinesNumbered` or `\LinesNotNumbered` written inside an algorithm counts from its next
# input or comment (they set `\everypar` again). Before the first line a label writes
# `\thealgocfline`, the count of algorithms so far, captioned or not.

A2E_ENVS = frozenset({"algorithm", "algorithm*"})
A2E_SHAPES: dict[str, str] = {
    **dict.fromkeys(
        ("For", "ForEach", "ForAll", "While", "If", "ElseIf", "Switch", "Case"), "block"
    ),
    **dict.fromkeys(("uIf", "uElseIf", "uCase"), "ublock"),
    **dict.fromkeys(("Else", "Begin", "Other"), "block0"),
    **dict.fromkeys(("uElse", "uOther"), "ublock0"),
    "eIf": "eif",
    "Repeat": "repeat",
    **dict.fromkeys(
        ("lIf", "lElseIf", "lFor", "lForEach", "lForAll", "lWhile", "lCase", "leIf"), "line2"
    ),
    **dict.fromkeys(("lElse", "lOther", "lRepeat"), "line1"),
    **dict.fromkeys(("KwIn", "KwOut", "KwData", "KwResult", "KwInput", "KwOutput"), "input"),
    **dict.fromkeys(("tcc", "tcp"), "comment"),
}
# commands that typeset nothing where they stand (their arguments are skipped too); and any
# `\Set…`
A2E_SILENT = frozenset(
    {
        "label",
        "nllabel",
        "caption",
        "DontPrintSemicolon",
        "PrintSemicolon",
        "BlankLine",
        "smallskip",
        "medskip",
        "bigskip",
        "vspace",
        "vskip",
        "Indp",
        "Indm",
        "Indpp",
        "Indmm",
        "ResetInOut",
        "IncMargin",
        "DecMargin",
        "centering",
        "raggedright",
        "noindent",
        "relax",
        "tiny",
        "scriptsize",
        "footnotesize",
        "small",
        "normalsize",
        "large",
        "Large",
        "newcommand",
        "renewcommand",
        "providecommand",
        "def",
        "let",
        "setcounter",
        "addtocounter",
    }
)
_A2E_DEFINERS = {
    "SetKwInput": "input",
    "SetKwInOut": "input",
    "SetKwComment": "comment",
    "SetKwFor": "block",
    "SetKwBlock": "block0",
    "SetKwRepeat": "repeat",
    "SetKwProg": "block",
}
_A2E_TOKEN = lazyre.pattern(
    r"\\([A-Za-z@]+)(\*?)|\\.|%[^\n]*|\n[ \t]*\n|[{}]|\$\$?|[^\s{}\\%]", re.S
)


class Algo2eLines:
    """One algorithm's lines: where each label's number changes (functional core: text in,
    events out). `events` holds (offset, line number): from that offset a label writes it."""

    def __init__(
        self, text: str, line: int, *, numbered: bool, ends: bool, shapes: dict[str, str]
    ) -> None:
        self.text = text
        self.line = line
        self.numbered = numbered
        self.ends = ends
        self.shapes = dict(shapes)
        self.open = False
        # `\\LinesNumbered` inside an algorithm changes the macro `\\everypar` is set from,
        # not `\\everypar`: it counts from the next input or comment
        self.pending: bool | None = None
        self.events: list[tuple[int, int]] = []

    def _step(self, pos: int) -> None:
        self.line += 1
        self.events.append((pos, self.line))

    def _start(self, pos: int) -> None:
        """Something typeset: a new paragraph, numbered, unless one is open."""
        if not self.open:
            self.open = True
            if self.numbered:
                self._step(pos)

    def _end_line(self, pos: int) -> None:
        """A block's `end`: a paragraph of its own."""
        if self.ends:
            self.open = False
            self._start(pos)
        self.open = False

    def run(self, start: int, end: int, depth: int = 0) -> None:
        """Read `text[start:end]` token by token: what begins a paragraph, what ends one,
        the block commands (`_shape`), whose arguments are read `depth + 1` deep."""
        text = self.text
        pos = start
        while pos < end:
            m = _A2E_TOKEN.search(text, pos, end)
            if m is None:
                return
            token = m.group(0)
            pos = m.end()
            name = m.group(1)
            if token.startswith("%") or token in ("{", "}"):
                continue
            if token.startswith("\n"):
                self.open = False
            elif name is None:
                if token == "\\;":
                    self.open = False
                elif token in _MATH:  # math is typeset, and its `\\;` is a space
                    self._start(m.start())
                    close = text.find(_MATH[token], pos, end)
                    pos = end if close < 0 else close + len(_MATH[token])
                elif token in ("\\\\", "\\ ", "\\$") or token[0] != "\\":
                    self._start(m.start())
            elif name == "par":
                self.open = False
            elif name in ("nl", "lnl"):
                self._start(m.start())
                self._step(m.start())
            elif name in ("LinesNumbered", "LinesNumberedHidden", "LinesNotNumbered"):
                self.pending = name != "LinesNotNumbered"
            elif name in _ENDINGS:
                self.ends = _ENDINGS[name]
            elif name in _A2E_DEFINERS and depth == 0:
                group = texscan.read_group(text, pos)
                if group is not None:
                    self._define(name, group[0].strip())
                pos = _skip_groups(text, pos, end)
            elif name in A2E_SILENT or name.startswith(("Set", "set")):
                pos = _skip_groups(text, pos, end)
            elif name == "begin":
                self._start(m.start())
                pos = _environment_end(text, pos, end)
            elif name in self.shapes and depth < _MAX_DEPTH:
                pos = self._shape(self.shapes[name], bool(m.group(2)), m.start(), pos, end, depth)
            else:
                self._start(m.start())

    def _define(self, definer: str, name: str) -> None:
        self.shapes.update(defined_shapes(definer, name))

    def _shape(self, shape: str, star: bool, at: int, pos: int, end: int, depth: int) -> int:
        text = self.text
        if shape in ("input", "comment"):
            if star:  # a side comment ends its line
                self._start(at)
                pos = _skip_optional(text, pos)
            group = texscan.read_group_span(text, pos)
            self.open = False
            if self.pending is not None:  # they set `\\everypar` again
                self.numbered, self.pending = self.pending, None
            return min(group[2], end) if group else pos
        self._start(at)
        pos = _skip_side(text, pos)
        heads = {"block": 1, "ublock": 1, "eif": 1, "repeat": 1, "line2": 1}.get(shape, 0)
        spans = []
        for _ in range(heads + (2 if shape == "eif" else 1)):
            span = texscan.read_group_span(text, pos)
            if span is None or span[2] > end:
                return pos
            spans.append(span)
            pos = _skip_side(text, span[2])
        if shape.startswith("line"):  # ends with `\\strut\\par`: a line after a `\\;` in it
            for span in spans:
                self.run(span[0], span[1], depth + 1)
            self._start(spans[-1][1])
            self.open = False
            return pos
        if shape == "repeat":  # repeat, the body, then `until` and its condition
            cond, body = spans
            repeat_line = self.line
            self.open = False
            self.run(body[0], body[1], depth + 1)
            self.open = False
            self._start(cond[0])
            until = self.events.pop() if self.numbered else None
            if until is not None:
                self.events.append((cond[0], until[1]))
                self.events.append((cond[1], repeat_line))
                self.events.sort(key=lambda event: event[0])
            self.open = False
            return pos
        bodies = spans[heads:]
        if heads:
            self.run(spans[0][0], spans[0][1], depth + 1)
        for index, body in enumerate(bodies):
            if index:  # eIf's `else`
                self.open = False
                self._start(body[0])
            self.open = False
            self.run(body[0], body[1], depth + 1)
            self.open = False
        if shape.startswith("u"):
            self.open = False
        else:
            self._end_line(bodies[-1][1])
        return pos


_MAX_DEPTH = 32
_MATH = {"$": "$", "$$": "$$", "\\(": "\\)", "\\[": "\\]"}
_ENDINGS = {
    "SetAlgoNoEnd": False,
    "SetAlgoVlined": False,
    "SetNothing": False,
    "SetAlgoLongEnd": True,
    "SetAlgoShortEnd": True,
    "SetAlgoLined": True,
    "SetAlgoNoLine": True,
}


def _skip_groups(text: str, pos: int, end: int) -> int:
    """Past the `{…}` and `[…]` arguments that follow."""
    while True:
        start = texscan.skip_spaces(text, pos)
        if start >= end or text[start] not in "{[":
            return pos
        span = (
            texscan.read_group_span(text, start)
            if text[start] == "{"
            else texscan.read_optional_span(text, start)
        )
        if span is None:
            return pos
        pos = min(span[2], end)


def _skip_side(text: str, pos: int) -> int:
    """Past algorithm2e's side comment `(…)`."""
    start = texscan.skip_spaces(text, pos)
    if start < len(text) and text[start] == "(":
        close = text.find(")", start)
        return close + 1 if close >= 0 else pos
    return pos


def _skip_optional(text: str, pos: int) -> int:
    optional = texscan.read_optional_span(text, pos)
    return optional[2] if optional else pos


def _environment_end(text: str, pos: int, end: int) -> int:
    group = texscan.read_group(text, pos)
    if group is None:
        return pos
    close = text.find(f"\\end{{{group[0].strip()}}}", group[1], end)
    return close + len(group[0].strip()) + 6 if close >= 0 else end


def algorithm2e_envs(walker: Walker) -> frozenset[str]:
    """The algorithm environments algorithm2e defines (`algo2e`: `algorithm2e`)."""
    if "algorithm2e" not in walker.reg.packages:
        return frozenset()
    if "algo2e" in walker.options.passed.get("algorithm2e", set()):
        return frozenset({"algorithm2e", "algorithm2e*"})
    return A2E_ENVS


def begin_algorithm2e(walker: Walker, text: str, pos: int, name: str) -> int:
    """An algorithm2e algorithm: its body read paragraph by paragraph, each label given the
    line it stands in; returns the body's end (the walk reads `\\end` itself)."""
    optional = texscan.read_optional(text, pos)
    if optional is not None:
        pos = optional[1]
    counters = walker.reg.counters
    close = text.find(f"\\end{{{name}}}", pos)
    if close < 0 or walker.in_algorithm2e or not walker.can_nest():
        return pos  # unclosed, or inside another: a float as any (bounded, linear work)
    end = close
    for counter in (A2E_COUNT, A2E_LINE):
        if not counters.exists(counter):
            counters.new(counter)
    counters.step(A2E_COUNT)  # a label before the caption writes it
    walker.current = Owner(counters.render(A2E_COUNT), "float")
    if sectioning.no_caption_yet(walker, "algorithm2e"):
        walker.current = Owner("", sectioning.XREF)
    options = walker.options.passed.get("algorithm2e", set())
    settings = walker.algorithm2e_settings
    lines = Algo2eLines(
        text,
        counters.value(A2E_LINE) if "noresetcount" in options else 0,
        numbered=settings.get("numbered", bool(options & {"linesnumbered", "linesnumberedhidden"})),
        ends=settings.get("ends", not options & {"noend", "vlined"}),
        shapes={**A2E_SHAPES, **walker.algorithm2e_shapes},
    )
    lines.run(pos, end)
    counters.set(A2E_LINE, lines.line)
    walker.in_algorithm2e += 1
    for at, line in lines.events:
        walker.scan_inside(text, pos, at)
        pos = at
        walker.current = Owner(str(line), "other", walker.enclosing_result())
    walker.scan_inside(text, pos, end)
    walker.in_algorithm2e -= 1
    return end


A2E_LINE = "AlgoLine"
A2E_COUNT = "algocfline"  # every algorithm, captioned or not (algorithm2e.sty: `\\@algocf@init`)


def algorithm2e_setting(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\LinesNumbered`, `\\SetAlgoNoEnd`, … in the preamble or the text (inside an
    algorithm they last to its end, and the algorithm's own reading has them)."""
    name = m.group(1)
    if not walker.in_algorithm2e:
        if name in _ENDINGS:
            walker.algorithm2e_settings["ends"] = _ENDINGS[name]
        else:
            walker.algorithm2e_settings["numbered"] = name != "LinesNotNumbered"
    return m.end()


def algorithm2e_definition(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\SetKwFor{Name}…` and its kin outside an algorithm: a block command for all."""
    group = texscan.read_group(text, m.end())
    if group is not None and not walker.in_algorithm2e:
        walker.algorithm2e_shapes.update(defined_shapes(m.group(1), group[0].strip()))
    return m.end()


def defined_shapes(definer: str, name: str) -> dict[str, str]:
    """What `\\SetKwFor{Name}`, `\\SetKwBlock{Name}`, … define: `\\Name`, and its one-line
    `\\lName` for a loop or a block."""
    shapes = {name: _A2E_DEFINERS[definer]}
    if definer == "SetKwFor":
        shapes["l" + name] = "line2"
    elif definer == "SetKwBlock":
        shapes["l" + name] = "line1"
    return shapes


A2E_SETTINGS = ("LinesNumbered", "LinesNumberedHidden", "LinesNotNumbered", *_ENDINGS)
A2E_DEFINERS = tuple(_A2E_DEFINERS)

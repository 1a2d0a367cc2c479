"""The counter table: values, resets and `\\the<counter>` templates (docs/latex-notes.md §1, §6).

`render` expands a `\\the` template the way `\\protected@edef` would for the printed forms
LaTeX offers: `\\arabic`, `\\roman`, `\\Roman`, `\\alph`, `\\Alph`, `\\fnsymbol`, their `\\@`
internals, other counters' `\\the…`, `\\the` and `\\number` before a TeX `<number>`
(`\\numexpr…\\relax`, read by preflight/numexpr.py), the kernel's `\\two@digits`, user macros
without arguments, and literal text.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from paperlint.preflight import lazyre, numexpr, texscan
from paperlint.preflight.record import Record

Memo = dict[tuple[str, int], str]  # (template, depth): what it printed, in one expansion
_FNSYMBOLS = ["*", "†", "‡", "§", "¶", "‖", "**", "††", "‡‡"]
_STYLES = ("arabic", "roman", "Roman", "alph", "Alph", "fnsymbol")
_DROP = {
    "relax",
    "protect",
    "textup",
    "textbf",
    "textit",
    "textrm",
    "textsf",
    "upshape",
    "mbox",
    "textnormal",
    "rm",
    "bf",
    "it",
    "sf",
    "normalfont",
    "bfseries",
    "mdseries",
    "itshape",
    "ensuremath",
    "mathrm",
    "text",
    "hbox",
    "nobreak",
    "unskip",
    "ignorespaces",
    "scshape",
    "textsc",
    "emph",
    "mathbf",
    "boldsymbol",
    "hspace",
    "kern",
    "@empty",
    "empty",
}
_TOKEN = lazyre.pattern(r"\\([A-Za-z@]+)\s*|\\(.)|([{}])|([^\\{}]+)", re.S)


def format_value(value: int, style: str) -> str:
    """A counter value in one of LaTeX's printed styles."""
    if style == "arabic":
        return str(value)
    if value <= 0:
        return "" if style != "fnsymbol" else ""
    if style in ("roman", "Roman"):
        text = _roman(value)
        return text if style == "Roman" else text.lower()
    if style in ("alph", "Alph"):
        text = _letters(value)
        return text if style == "Alph" else text.lower()
    if style == "fnsymbol":
        return _FNSYMBOLS[(value - 1) % len(_FNSYMBOLS)]
    return str(value)


def _letters(value: int) -> str:
    out = ""
    while value > 0:
        value, rem = divmod(value - 1, 26)
        out = chr(ord("A") + rem) + out
    return out


def _roman(value: int) -> str:
    table = [
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ]
    out = ""
    for amount, letters in table:
        while value >= amount:
            out += letters
            value -= amount
    return out


class Counters(Record):
    """Counter values, reset lists and `\\the` templates, mutated in document order."""

    __slots__ = ("values", "children", "the", "macros", "aliases")
    values: dict[str, int]
    children: dict[str, set[str]]
    the: dict[str, str]
    macros: dict[str, str]
    # aliascnt: `\\newaliascnt{lemma}{theorem}` makes `lemma` another name of `theorem`
    aliases: dict[str, str]

    def __init__(self) -> None:
        self.values = {}
        self.children = {}
        self.the = {}
        self.macros = {}
        self.aliases = {}

    def real(self, name: str) -> str:
        return self.aliases.get(name, name)

    def value(self, name: str) -> int:
        return self.values.get(self.real(name), 0)

    def alias(self, name: str, target: str) -> None:
        self.aliases[name] = self.real(target)
        self.the[name] = f"\\the{target}"

    def new(self, name: str, within: str | None = None, template: str | None = None) -> None:
        self.values.setdefault(name, 0)
        self.children.setdefault(name, set())
        self.the[name] = template or f"\\arabic{{{name}}}"
        if within:
            self.add_reset(name, within)

    def exists(self, name: str) -> bool:
        return self.real(name) in self.values

    def add_reset(self, name: str, parent: str) -> None:
        self.children.setdefault(parent, set()).add(name)
        self.values.setdefault(parent, 0)

    def remove_reset(self, name: str, parent: str) -> None:
        self.children.get(parent, set()).discard(name)

    def step(self, name: str) -> None:
        """`\\stepcounter`: increment and zero the reset list, recursively."""
        name = self.real(name)
        self.values[name] = self.values.get(name, 0) + 1
        self._reset_children(name, set())

    def reset_children(self, name: str) -> None:
        """Zero the reset list of `name` without stepping it (KOMA's `\\addsec`)."""
        self._reset_children(self.real(name), set())

    def _reset_children(self, name: str, seen: set[str]) -> None:
        for child in self.children.get(name, ()):
            if child in seen:
                continue
            seen.add(child)
            self.values[child] = 0
            self._reset_children(child, seen)

    def set(self, name: str, value: int) -> None:
        self.values[self.real(name)] = value

    def add(self, name: str, value: int) -> None:
        self.values[self.real(name)] = self.value(name) + value

    def within(
        self, name: str, parent: str, *, style: str = "arabic", keep_the: bool = False
    ) -> None:
        """`\\counterwithin`/`\\numberwithin`: reset by parent, print as `\\the<parent>.N`."""
        self.add_reset(name, parent)
        if not keep_the:
            self.the[name] = f"\\the{parent}.\\{style}{{{name}}}"

    def render(self, name: str) -> str:
        """The printed `\\the<name>` now."""
        return self.render_template(self.the.get(name, f"\\arabic{{{name}}}"))

    def render_template(self, template: str) -> str:
        """What `template` (`\\thesection.\\arabic{theorem}`, …) prints now."""
        return texscan.strip_braces(self.expand(template, depth=0)).replace("~", " ").strip()

    def expand(self, template: str, depth: int, memo: Memo | None = None) -> str:
        """What `template` prints at nesting `depth` (past 12 levels: nothing). `memo` keeps
        what each template that names others printed at each depth during one expansion, in
        which nothing changes: a template naming another twice, at each level, costs no power
        of two (`\\renewcommand\\thetheorem{\\thetheorem\\thetheorem\\thetheorem}`)."""
        if depth > 12:
            return ""
        compiled = _pieces(template)
        if compiled is not None and not compiled[0]:  # text and counters only: nothing to keep
            return self._expand_pieces(compiled[1], depth, {})
        memo = {} if memo is None else memo
        key = (template, depth)
        done = memo.get(key)
        if done is None:
            if compiled is None:
                done = self._expand_tokens(template, depth, memo)
            else:
                done = self._expand_pieces(compiled[1], depth, memo)
            memo[key] = done
        return done

    def _expand_pieces(self, pieces: tuple[Piece, ...], depth: int, memo: Memo) -> str:
        """`expand` of a template read into `pieces` ahead of time (`_pieces`)."""
        out: list[str] = []
        for kind, first, second in pieces:
            if kind is _LITERAL:
                out.append(first)
            elif kind is _STYLE:
                out.append(format_value(self.value(second), first))
            elif kind is _WORD:
                out.append(self._word_value(first, depth, memo))
            else:
                name, test = first
                then, otherwise = second
                branch = then if self._holds(name, test) else otherwise
                out.append(self.expand(branch, depth + 1, memo))
        return "".join(out)

    def _expand_tokens(self, template: str, depth: int, memo: Memo) -> str:
        """`expand` token by token, for a template `_pieces` does not read ahead of time."""
        out: list[str] = []
        pos = 0
        while pos < len(template):
            match = _TOKEN.match(template, pos)
            if match is None:
                break
            pos = match.end()
            word = match.group(1)
            if word is None:
                out.append(_literal(match))
                continue
            text, pos = self._expand_word(word, template, pos, depth, memo)
            out.append(text)
        return "".join(out)

    def _expand_word(
        self, word: str, template: str, pos: int, depth: int, memo: Memo
    ) -> tuple[str, int]:
        if word in _STYLES:
            group = texscan.read_group(template, pos)
            if group is None:
                return "", pos
            name = group[0].strip()
            return format_value(self.value(name), word), group[1]
        if word in ("number", "the"):  # TeX's `<number>`: `\\the\\numexpr\\value{c}+100\\relax`
            value, end = numexpr.read_number(template, pos, self)
            return ("", pos) if value is None else (str(value), end)
        if word == "two@digits":  # the kernel's: `\\ifnum#1<10 0\\fi\\number#1`
            group = texscan.read_group(template, pos)
            value = None if group is None else numexpr.expression(group[0], self)
            if value is None or group is None:
                return "", pos
            return ("0" if value < 10 else "") + str(value), group[1]
        if word.startswith("@") and word[1:] in _STYLES:
            return self._internal_value(word.lstrip("@"), template, pos)
        if word == "ifnum":
            return self._ifnum(template, pos, depth, memo)
        return self._word_value(word, depth, memo), pos

    def _word_value(self, word: str, depth: int, memo: Memo) -> str:
        """What a control word that reads no argument prints."""
        if word.startswith("the") and word[3:] in self.the:
            return self.expand(self.the[word[3:]], depth + 1, memo)
        if word in self.macros:
            return self.expand(self.macros[word], depth + 1, memo)
        if word in ("space", "nobreakspace"):
            return " "
        return ""  # `\\fi`, formatting commands and unknown macros print nothing we track

    # what `numexpr` reads operands from (numexpr.Lookup): counters and argument-free macros
    def counter(self, name: str) -> int | None:
        return self.values.get(self.real(name))

    def label_number(self, key: str) -> str | None:
        return None

    def register(self, name: str) -> int | None:
        return None

    def macro_body(self, name: str) -> str | None:
        return self.macros.get(name)

    def _internal_value(self, style: str, template: str, pos: int) -> tuple[str, int]:
        match = re.compile(r"\s*\\c@([A-Za-z@]+)|\s*\\value\s*\{([^}]*)\}").match(template, pos)
        if match is None:
            return "", pos
        name = match.group(1) or match.group(2).strip()
        style = style if style in _STYLES else "arabic"
        return format_value(self.value(name), style), match.end()

    def _ifnum(self, template: str, pos: int, depth: int, memo: Memo) -> tuple[str, int]:
        # `\ifnum\c@chapter>\z@ \thechapter.\fi`: book's equation prefix and its variants.
        found = _read_ifnum(template, pos)
        if found is None:
            return "", pos
        (name, test), (then, otherwise), end = found
        return self.expand(then if self._holds(name, test) else otherwise, depth + 1, memo), end

    def _holds(self, name: str, test: tuple[str, int]) -> bool:
        relation, limit = test
        value = self.value(name)
        return {"<": value < limit, ">": value > limit, "=": value == limit}[relation]


_IFNUM = lazyre.pattern(r"\s*(?:\\c@([A-Za-z@]+)|\\value\s*\{([^}]*)\})\s*([<>=])\s*(\\z@|\d+)\s*")


def _read_ifnum(
    template: str, pos: int
) -> tuple[tuple[str, tuple[str, int]], tuple[str, str], int] | None:
    """The `\\ifnum` test after `pos` (the counter, the relation and the limit), its two
    branches and where its `\\fi` ends; None when it is not one `_ifnum` reads."""
    match = _IFNUM.match(template, pos)
    close = template.find("\\fi", pos)
    if match is None or close < 0:
        return None
    name = match.group(1) or match.group(2).strip()
    limit = 0 if match.group(4) == "\\z@" else int(match.group(4))
    then, _, otherwise = template[match.end() : close].partition("\\else")
    return (name, (match.group(3), limit)), (then, otherwise), close + 3


# what `_pieces` reads a template into: literal text, a counter printed in a style
# (`\\arabic{theorem}`), a control word that reads no argument (`\\thechapter`, a user macro),
# and an `\\ifnum` test with its branches
_LITERAL, _STYLE, _WORD, _IF = "literal", "style", "word", "if"
Piece = tuple[str, Any, Any]


@functools.lru_cache(maxsize=1024)
def _pieces(template: str) -> tuple[bool, tuple[Piece, ...]] | None:
    """`template` read once into pieces, as `Counters._expand_tokens` reads it (what it
    prints depends on the counters, macros and templates of the moment, but where each
    token ends does not), and whether one of them expands another template. None when it
    holds a word whose argument is read by value (`\\the`, `\\number`, `\\two@digits`,
    `\\@arabic`): those are read token by token at each use."""
    pieces: list[Piece] = []
    pos = 0
    while pos < len(template):
        match = _TOKEN.match(template, pos)
        if match is None:
            break
        pos = match.end()
        word = match.group(1)
        if word is None:
            pieces.append((_LITERAL, _literal(match), None))
        elif word in _STYLES:
            group = texscan.read_group(template, pos)
            if group is not None:
                pieces.append((_STYLE, word, group[0].strip()))
                pos = group[1]
        elif word in ("number", "the", "two@digits") or (
            word.startswith("@") and word[1:] in _STYLES
        ):
            return None
        elif word == "ifnum":
            found = _read_ifnum(template, pos)
            if found is not None:
                test, branches, pos = found
                pieces.append((_IF, test, branches))
        else:
            pieces.append((_WORD, word, None))
    return any(kind in (_WORD, _IF) for kind, _, _ in pieces), tuple(pieces)


def _literal(match: re.Match[str]) -> str:
    """What a `_TOKEN` that is no control word prints."""
    return match.group(3) or match.group(4) or _char(match.group(2))


def _char(ch: str | None) -> str:
    if ch in (" ", "\n"):
        return " "
    if ch in ("@", ","):
        return "" if ch == "@" else " "
    return ch or ""

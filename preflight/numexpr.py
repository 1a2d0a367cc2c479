"""Integers as TeX and LaTeX read them: `\\setcounter`/`\\addtocounter` values, `\\ifcase`
and `\\ifnum` operands.

Three grammars, as LaTeX has them:

- TeX's `<number>`: signs, then one integer (digits, a count register such as `\\c@page` or
  `\\value{page}`, `\\numexpr … \\relax`, or a macro that expands to digits). Without the
  calc package `\\setcounter{c}{\\value{d}-1}` assigns `\\value{d}` and typesets "-1".
- `\\numexpr`: `+ - * /` and parentheses; `/` rounds half away from zero.
- calc (loaded by calc itself, mathtools and the jmlr class): `\\setcounter` (and
  `\\addtocounter`, unless amstext was loaded after calc) evaluates `+ - * /` with
  parentheses; its `/` truncates toward zero.

Operands: digits, `\\value{c}`, `\\c@c`, `\\arabic{c}`, `\\the\\c@c`, refcount's
`\\getrefnumber{key}` (a label already seen whose number is an integer), count registers
and `\\chardef`s, and user macros whose body is one of these. Anything else (a page number,
`\\getpagerefnumber`, a label not seen yet) makes the value unknown: `None`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Protocol

from paperlint.preflight import lazyre, texscan

MAX_MACRO_DEPTH = 8
_TOKEN = lazyre.pattern(
    r"\s*(?:(?P<digits>\d+)|\\(?P<word>[A-Za-z@]+)\s*|(?P<op>[-+*/()=<>])|\\(?P<char>.))", re.S
)
_GROUP_WORDS = ("value", "arabic", "getrefnumber", "ref", "getpagerefnumber", "pageref")
# the kernel's integer constants (`\\z@` is a dimen, 0pt, but reads as 0 here too)
_CONSTANTS = {"z@": 0, "@ne": 1, "m@ne": -1, "tw@": 2, "thr@@": 3, "@m": 1000, "@M": 10000}
_KNOWN_WORDS = frozenset({"numexpr", "relax", "the", "number", *_CONSTANTS})


class Lookup(Protocol):
    """What the evaluator needs from the document walk so far."""

    def counter(self, name: str) -> int | None: ...

    def label_number(self, key: str) -> str | None: ...

    def register(self, name: str) -> int | None: ...

    def macro_body(self, name: str) -> str | None: ...


class _Tokens:
    """The tokens of an expression, read lazily (TeX reads no further than it needs), with
    one token of look-ahead; `end` is where the last token taken ends in the text."""

    def __init__(self, text: str, pos: int, lookup: Lookup) -> None:
        self._items = _scan(text, pos, lookup, 0)
        self._next: tuple[str, str, int] | None = None
        self._peeked = False
        self.end = pos

    def peek(self) -> tuple[str, str] | None:
        if not self._peeked:
            self._next = next(self._items, None)
            self._peeked = True
        return None if self._next is None else self._next[:2]

    def take(self) -> tuple[str, str] | None:
        item = self.peek()
        self._peeked = False
        if self._next is not None:
            self.end = self._next[2]
        return item


class _Unknown(Exception):
    """An operand whose value the walk does not know."""


def _scan(text: str, pos: int, lookup: Lookup, depth: int) -> Iterator[tuple[str, str, int]]:
    """(kind, value, end): ("int", "12"), ("op", "+"), ("word", "relax"), ("value", "c"),
    ("bad", text) where nothing can be read; a user macro is replaced by its tokens (their
    end is the end of the macro's name)."""
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None:
            if text[pos:].strip():
                yield "bad", text[pos : pos + 1], pos
            return
        pos = match.end()
        if match.group("digits") is not None:
            yield "int", match.group("digits"), pos
        elif match.group("op") is not None:
            yield "op", match.group("op"), pos
        elif match.group("char") is not None:
            yield "bad", match.group("char"), pos
        else:
            word = match.group("word")
            if word in _GROUP_WORDS:
                group = texscan.read_group(text, pos)
                if group is None:
                    yield "bad", word, pos
                    return
                pos = group[1]
                yield word, group[0].strip(), pos
                continue
            body = lookup.macro_body(word) if word not in _KNOWN_WORDS else None
            if body is not None and depth < MAX_MACRO_DEPTH:
                for kind, value, _ in _scan(body, 0, lookup, depth + 1):
                    yield kind, value, pos
                continue
            yield "word", word, pos


def _operand(stream: _Tokens, lookup: Lookup) -> int:
    """One integer operand (no sign); raises _Unknown."""
    item = stream.take()
    if item is None:
        raise _Unknown
    kind, value = item
    if kind == "int":
        return int(value)
    if kind in ("value", "arabic"):
        found = lookup.counter(value)
        if found is None:
            raise _Unknown
        return found
    if kind in ("getrefnumber", "ref"):
        number = lookup.label_number(value)
        if number is None or not number.isdigit():
            raise _Unknown
        return int(number)
    if kind == "word":
        return _word_value(value, stream, lookup)
    raise _Unknown


def _word_value(word: str, stream: _Tokens, lookup: Lookup) -> int:
    if word in ("the", "number"):
        return _operand(stream, lookup)
    if word == "numexpr":
        value = _numexpr(stream, lookup)
        following = stream.peek()
        if following == ("word", "relax"):
            stream.take()
        return value
    if word in _CONSTANTS:
        return _CONSTANTS[word]
    found = lookup.counter(word[2:]) if word.startswith("c@") else lookup.register(word)
    if found is None:
        raise _Unknown
    return found


def _signs(stream: _Tokens) -> int:
    sign = 1
    while stream.peek() in (("op", "-"), ("op", "+")):
        item = stream.take()
        if item == ("op", "-"):
            sign = -sign
    return sign


def _number(stream: _Tokens, lookup: Lookup) -> int:
    """TeX's `<number>`: optional signs, then one integer."""
    sign = _signs(stream)
    return sign * _operand(stream, lookup)


def _numexpr(stream: _Tokens, lookup: Lookup) -> int:
    return _sum(stream, lookup, _round_div)


def _sum(stream: _Tokens, lookup: Lookup, divide: _Divide) -> int:
    total = _product(stream, lookup, divide)
    while stream.peek() in (("op", "+"), ("op", "-")):
        op = stream.take()
        value = _product(stream, lookup, divide)
        total = total + value if op == ("op", "+") else total - value
    return total


def _product(stream: _Tokens, lookup: Lookup, divide: _Divide) -> int:
    value = _factor(stream, lookup, divide)
    while stream.peek() in (("op", "*"), ("op", "/")):
        op = stream.take()
        other = _factor(stream, lookup, divide)
        if op == ("op", "*"):
            value *= other
        elif other == 0:
            raise _Unknown  # TeX: "Arithmetic overflow"
        else:
            value = divide(value, other)
    return value


def _factor(stream: _Tokens, lookup: Lookup, divide: _Divide) -> int:
    sign = _signs(stream)
    if stream.peek() == ("op", "("):
        stream.take()
        value = _sum(stream, lookup, divide)
        if stream.take() != ("op", ")"):
            raise _Unknown
        return sign * value
    return sign * _operand(stream, lookup)


class _Divide(Protocol):
    def __call__(self, a: int, b: int, /) -> int: ...


def _round_div(a: int, b: int) -> int:
    """`\\numexpr`'s division: the quotient rounded, halves away from zero."""
    quotient, remainder = divmod(abs(a), abs(b))
    if 2 * remainder >= abs(b):
        quotient += 1
    return quotient if (a >= 0) == (b > 0) else -quotient


def _truncating_div(a: int, b: int) -> int:
    """calc's (TeX's `\\divide`) division: truncated toward zero."""
    quotient = abs(a) // abs(b)
    return quotient if (a >= 0) == (b > 0) else -quotient


def evaluate(text: str, lookup: Lookup, *, calc: bool) -> int | None:
    """The value a counter command assigns from `text` (None when unknown). Without calc
    TeX reads one `<number>` and typesets the rest; with calc the whole text is the
    expression."""
    stream = _Tokens(text, 0, lookup)
    try:
        if not calc:
            return _number(stream, lookup)
        value = _sum(stream, lookup, _truncating_div)
    except _Unknown:
        return None
    return value if stream.peek() is None else None  # calc stops on anything left over


def expression(text: str, lookup: Lookup) -> int | None:
    """`text` read whole as `\\numexpr text\\relax` (etoolbox's `\\ifnumcomp{text}{<}{…}` and
    its kin): None when unknown or when anything is left over."""
    stream = _Tokens(text, 0, lookup)
    try:
        value = _numexpr(stream, lookup)
    except _Unknown:
        return None
    return value if stream.peek() is None else None


def read_number(text: str, pos: int, lookup: Lookup) -> tuple[int | None, int]:
    """TeX's `<number>` at `pos` of running text (after `\\ifcase`, `\\ifnum`, a register
    assignment): its value (None when unknown) and where it ends."""
    stream = _Tokens(text, pos, lookup)
    try:
        value: int | None = _number(stream, lookup)
    except _Unknown:
        value = None
    return value, stream.end


def read_relation(text: str, pos: int, lookup: Lookup) -> tuple[bool | None, int]:
    """`\\ifnum`'s `<number> <relation> <number>`: the truth (None when unknown) and where
    the test ends."""
    left, pos = read_number(text, pos, lookup)
    relation = re.compile(r"\s*([<=>])").match(text, pos)
    if relation is None:
        return None, pos
    right, end = read_number(text, relation.end(), lookup)
    if left is None or right is None:
        return None, end
    return compare(left, relation.group(1), right), end


def compare(left: int, relation: str, right: int) -> bool:
    return {"<": left < right, "=": left == right, ">": left > right}[relation]

"""A Lean 4 lexer good enough to tell code from comments, strings and names.

Every text scan of Lean (hygiene, fingerprints, the skeleton check, the unused-hypothesis lint)
must ignore `sorry` in a comment and must see `sorry` in code (docs/lean-notes.md §6.0,
docs/prior-art.md §4.5). A regex cannot do that across nested `/- /- -/ -/` comments, `x'`
identifiers against `'a'` character literals, `«quoted»` names or `s!"…{code}…"` interpolations, so
this module lexes.

Positions follow Lean's own convention (docs/lean-notes.md §4.1): lines are 1-based, columns are
0-based and count code points. Unterminated comments and strings run to the end of the text; the
lexer never raises, because its callers scan hostile input.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from enum import StrEnum
from functools import lru_cache
from typing import NamedTuple


class Kind(StrEnum):
    IDENT = "ident"  # `foo`, `Foo.bar'`, `«quoted name»`, `sorry`, `theorem`
    NUMBER = "number"
    STRING = "string"  # "…", r#"…"#, and the literal parts of s!"…"
    CHAR = "char"  # 'a', '\n'
    NAME = "name"  # `foo and ``foo name literals
    COMMENT = "comment"  # -- line, /- block -/, /-- doc -/, /-! module doc -/
    HASH_COMMAND = "hash_command"  # #eval, #print, #exit
    SYMBOL = "symbol"


class Token(NamedTuple):
    kind: Kind
    text: str
    line: int  # 1-based
    col: int  # 0-based, in code points
    offset: int  # index into the lexed text

    @property
    def end(self) -> int:
        return self.offset + len(self.text)


# Multi-character symbols the scans care about; everything else is one character.
_SYMBOLS = (":=", "=>", "@[", "<;>", "..", "->", "<-", "⟨", "⟩")
_SYMBOLS_BY_START: dict[str, tuple[str, ...]] = {}
for _symbol in _SYMBOLS:  # in the order above, which decides between two that could match
    _SYMBOLS_BY_START[_symbol[0]] = (*_SYMBOLS_BY_START.get(_symbol[0], ()), _symbol)
# Words whose string argument Lean reads as `interpolatedStr(term)`: the `{…}` parts are code,
# written `s!"…"`, `s! "…"` (whitespace is allowed) or `dbg_trace "…{e}…"`, `throwError "…{e}…"`.
_INTERPOLATION_PREFIXES = frozenset(
    {"s!", "m!", "f!", "dbg_trace", "throwError", "throwErrorAt", "logInfo", "logWarning"}
)
_LETTERLIKE_RANGES = (
    (0x3B1, 0x3C9),  # lower-case Greek (λ is excluded below)
    (0x391, 0x3A9),  # upper-case Greek (Π, Σ are excluded below)
    (0x3CA, 0x3FB),  # Coptic
    (0x1F00, 0x1FFE),  # polytonic Greek
    (0x2100, 0x214F),  # letter-like symbols: ℕ ℝ ℂ ℚ ℤ …
    (0x1D49C, 0x1D59F),  # script, fraktur and double-struck letters: 𝓝 𝔼 …
)
_NOT_LETTERS = frozenset("λΠΣ")
_WHITESPACE = re.compile(r"\s+")
_SUBSCRIPTS = frozenset("₀₁₂₃₄₅₆₇₈₉ₐₑₒₓₔₕₖₗₘₙₚₛₜᵢᵣᵤᵥᵦᵧᵨᵩᵪⱼ")


@lru_cache(maxsize=4096)
def is_ident_start(ch: str) -> bool:
    """Whether `ch` may begin a Lean identifier (Lean's `isIdFirst`, approximately)."""
    if ch.isascii():
        return ch == "_" or ch.isalpha()
    if ch in _NOT_LETTERS:
        return False
    code = ord(ch)
    if any(lo <= code <= hi for lo, hi in _LETTERLIKE_RANGES):
        return True
    return not ch.isascii() and ch.isalpha() and code < 0x2000 and not _is_greek(code)


def _is_greek(code: int) -> bool:
    return 0x370 <= code <= 0x3FF


@lru_cache(maxsize=4096)
def is_ident_rest(ch: str) -> bool:
    """Whether `ch` may continue a Lean identifier: letters, digits, `_ ' ! ?`, subscripts."""
    if ch.isascii():
        return ch.isalnum() or ch in "_'!?"
    return is_ident_start(ch) or ch.isdigit() or ch in _SUBSCRIPTS


class _Cursor:
    """Walks the text and keeps the line and column of the current index."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0
        self.line = 1
        self.col = 0

    def peek(self, ahead: int = 0) -> str:
        j = self.i + ahead
        return self.text[j] if j < len(self.text) else ""

    def startswith(self, prefix: str) -> bool:
        return self.text.startswith(prefix, self.i)

    def advance(self, count: int = 1) -> None:
        end = min(self.i + count, len(self.text))
        newlines = self.text.count("\n", self.i, end)
        if newlines:
            self.line += newlines
            self.col = end - self.text.rfind("\n", self.i, end) - 1
        else:
            self.col += end - self.i
        self.i = end

    def at_end(self) -> bool:
        return self.i >= len(self.text)


def tokenize(text: str) -> list[Token]:
    """All tokens of `text`, comments included, whitespace left out."""
    return list(_tokenize_cached(text))


@lru_cache(maxsize=16)
def _tokenize_cached(text: str) -> tuple[Token, ...]:
    # The scans of one file (hygiene, commands, imports, unused lint) all lex the same text.
    return tuple(_lex(_Cursor(text), inside_braces=False))


def code_tokens(text: str) -> list[Token]:
    """The tokens a scan for code should look at: no comments, strings or characters."""
    return [t for t in tokenize(text) if t.kind not in _NON_CODE]


_NON_CODE = frozenset({Kind.COMMENT, Kind.STRING, Kind.CHAR})


def mask(text: str, *, keep_strings: bool = False) -> str:
    """`text` with comments (and strings and characters) blanked to spaces.

    Newlines are kept, so every remaining character keeps its line and column.
    """
    blank = {Kind.COMMENT} if keep_strings else _NON_CODE
    chars = list(text)
    for token in tokenize(text):
        if token.kind in blank:
            for j in range(token.offset, token.end):
                if chars[j] != "\n":
                    chars[j] = " "
    return "".join(chars)


def _lex(cur: _Cursor, *, inside_braces: bool) -> Iterator[Token]:
    """Lex code until the end, or until the `}` that closes an interpolation."""
    depth = 0
    previous: Token | None = None
    while not cur.at_end():
        ch = cur.peek()
        if ch.isspace():
            match = _WHITESPACE.match(cur.text, cur.i)
            cur.advance(match.end() - cur.i if match else 1)
            continue
        if inside_braces and ch == "}" and depth == 0:
            return
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == '"' and previous is not None and _is_interpolation_prefix(previous, cur):
            yield from _lex_interpolated(cur)
            previous = None
            continue
        token = _lex_one(cur)
        previous = token
        yield token


def _is_interpolation_prefix(previous: Token, cur: _Cursor) -> bool:
    # Only whitespace can sit between the prefix and the quote: a comment is a token of its own.
    return previous.kind is Kind.IDENT and previous.text in _INTERPOLATION_PREFIXES


def _lex_one(cur: _Cursor) -> Token:
    # Each test on `ch` first: a token is lexed for every few characters of every text sent
    # to Lean, so the prefix tests below run only where they can match.
    ch = cur.peek()
    if ch == "-" and cur.startswith("--"):
        return _take_until(cur, Kind.COMMENT, _line_end(cur))
    if ch == "/" and cur.startswith("/-"):
        return _take_until(cur, Kind.COMMENT, _block_comment_end(cur.text, cur.i))
    if ch == '"':
        return _take_until(cur, Kind.STRING, _string_end(cur.text, cur.i))
    if ch == "r" and _raw_string_end(cur.text, cur.i) is not None:
        return _take_until(cur, Kind.STRING, _raw_string_end(cur.text, cur.i) or 0)
    if ch == "'" and _char_end(cur.text, cur.i) is not None:
        return _take_until(cur, Kind.CHAR, _char_end(cur.text, cur.i) or 0)
    if ch == "`" and (cur.peek(1) == "`" or _starts_ident(cur.peek(1))):
        start = cur.i + (2 if cur.peek(1) == "`" else 1)
        return _take_until(cur, Kind.NAME, _ident_end(cur.text, start))
    if ch == "#" and is_ident_start(cur.peek(1)):
        return _take_until(cur, Kind.HASH_COMMAND, _ident_end(cur.text, cur.i + 1))
    if _starts_ident(ch):
        return _take_until(cur, Kind.IDENT, _ident_end(cur.text, cur.i))
    if ch.isdigit():
        return _take_until(cur, Kind.NUMBER, _number_end(cur.text, cur.i))
    symbol = next((s for s in _SYMBOLS_BY_START.get(ch, ()) if cur.startswith(s)), ch)
    return _take_until(cur, Kind.SYMBOL, cur.i + len(symbol))


def _take_until(cur: _Cursor, kind: Kind, end: int) -> Token:
    end = max(end, cur.i + 1)
    token = Token(kind, cur.text[cur.i : end], cur.line, cur.col, cur.i)
    cur.advance(end - cur.i)
    return token


def _starts_ident(ch: str) -> bool:
    return ch == "«" or (ch != "" and is_ident_start(ch))


def _line_end(cur: _Cursor) -> int:
    newline = cur.text.find("\n", cur.i)
    return len(cur.text) if newline < 0 else newline


def _block_comment_end(text: str, start: int) -> int:
    """End of the `/- … -/` at `start`; nesting counts `/-` and `-/` only, as Lean does.

    `/--` and `/-!` are three-character tokens in Lean, so `/--/` does not close itself.
    """
    nesting = 1
    i = start + (3 if text.startswith(("/--", "/-!"), start) else 2)
    while i < len(text):
        if text.startswith("-/", i):
            nesting -= 1
            i += 2
            if nesting == 0:
                return i
        elif text.startswith("/-", i):
            nesting += 1
            i += 2
        else:
            i += 1
    return len(text)


def _string_end(text: str, start: int) -> int:
    """End of the string literal whose opening quote is at `start` (escapes honoured)."""
    i = start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
        elif text[i] == '"':
            return i + 1
        else:
            i += 1
    return len(text)


def _raw_string_end(text: str, start: int) -> int | None:
    """End of `r"…"` / `r#"…"#` at `start`, or None when `r` starts an identifier."""
    i = start + 1
    while i < len(text) and text[i] == "#":
        i += 1
    if i >= len(text) or text[i] != '"':
        return None
    closing = '"' + "#" * (i - start - 1)
    found = text.find(closing, i + 1)
    return len(text) if found < 0 else found + len(closing)


def _char_end(text: str, start: int) -> int | None:
    """End of a character literal at `start`, or None when the quote is not one."""
    if start + 1 >= len(text):
        return None
    if text[start + 1] == "\\":
        close = text.find("'", start + 3)
        newline = text.find("\n", start)
        if close < 0 or (0 <= newline < close) or close - start > 12:
            return None
        return close + 1
    if start + 2 < len(text) and text[start + 1] != "\n" and text[start + 2] == "'":
        return start + 3
    return None


def _ident_end(text: str, start: int) -> int:
    """End of a possibly dotted identifier whose parts are plain or `«quoted»`."""
    i = start
    while i < len(text):
        if text[i] == "«":
            close = text.find("»", i + 1)
            i = len(text) if close < 0 else close + 1
        elif is_ident_start(text[i]):
            i += 1
            while i < len(text) and is_ident_rest(text[i]):
                i += 1
        else:
            return i
        if i + 1 < len(text) and text[i] == "." and _starts_ident(text[i + 1]):
            i += 1
        else:
            return i
    return i


def _number_end(text: str, start: int) -> int:
    i = start + 1
    while i < len(text) and (text[i].isalnum() or text[i] == "_"):
        i += 1
    if i + 1 < len(text) and text[i] == "." and text[i + 1].isdigit():
        i += 1
        while i < len(text) and text[i].isalnum():
            i += 1
    return i


def _lex_interpolated(cur: _Cursor) -> Iterator[Token]:
    """The literal parts of `s!"…{e}…"` as strings and each `{e}` as code."""
    start = cur.i
    line, col = cur.line, cur.col
    cur.advance()  # the opening quote
    while not cur.at_end():
        ch = cur.peek()
        if ch == "\\":
            cur.advance(2)
        elif ch == '"':
            cur.advance()
            break
        elif ch == "{":
            yield Token(Kind.STRING, cur.text[start : cur.i + 1], line, col, start)
            cur.advance()
            yield from _lex(cur, inside_braces=True)
            start, line, col = cur.i, cur.line, cur.col
            cur.advance()  # the closing brace (a no-op at the end of the text)
        else:
            cur.advance()
    if cur.i > start:
        yield Token(Kind.STRING, cur.text[start : cur.i], line, col, start)


def unquoted_parts(name: str) -> list[str]:
    """`Foo.«bar»` → `["Foo", "bar"]`: the name Lean resolves, whatever the spelling."""
    return [part.removeprefix("«").removesuffix("»") for part in ident_parts(name)]


def ident_parts(name: str) -> list[str]:
    """`Foo.«bar baz».qux` → `["Foo", "«bar baz»", "qux"]`, dots inside `«»` kept."""
    parts: list[str] = []
    current: list[str] = []
    quoted = False
    for ch in name:
        if ch == "«":
            quoted = True
        elif ch == "»":
            quoted = False
        if ch == "." and not quoted:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return parts

"""A Lean 4 lexer that puts token boundaries where Lean 4.35 puts them.

Every text scan of Lean (hygiene, fingerprints, the skeleton check, the unused-hypothesis lint)
must ignore `sorry` in a comment and must see `sorry` in code. A regex cannot do that across
nested `/- /- -/ -/` comments, `x'` identifiers against `'a'` character literals, `«quoted»`
names or `s!"…{code}…"` interpolations, so this module lexes, and it lexes by Lean's own rules
(docs/lean-tokens.md, taken from Lean 4.35's parser and checked against the real executable by
tests/lean_oracle/): identifier characters are `isIdFirst`/`isIdRest` exactly, numerals stop
after their digits (`0instance` is the numeral `0` and the keyword `instance`), a block
comment's third character is never read as a nested opener, and a hash command is the longest
one Lean knows (`#checkx` is `#check` and `x`).

Where Lean would refuse the text (an unterminated comment or string, a bad escape, a numeral
such as `0x` or `2.foo`, a tab), the tokens still partition the text and `lex_errors` says what
Lean refuses and where; the scans refuse model-written text with such an error. Positions
follow Lean's convention: lines are 1-based, columns are 0-based and count code points. The
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
    NUMBER = "number"  # `0`, `0x1F`, `1_000`, `1.5e-3`, a field index `1` in `h.1`
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


class LexError(NamedTuple):
    """Text Lean's tokenizer refuses: Lean reports an error here, whatever follows."""

    message: str
    line: int
    col: int
    offset: int


# Lean 4.35 `isLetterLike` and `isSubScriptAlnum` (`Init/Meta/Defs.lean`), as code-point
# ranges; `isIdFirst` adds ASCII letters and `_`, `isIdRest` ASCII digits and `_ ' ! ?`.
_LETTER_LIKE = (
    (0x3B1, 0x3BA),  # Greek small letters without λ (U+3BB)
    (0x3BC, 0x3C9),
    (0x391, 0x39F),  # Greek capitals without Π (U+3A0) and Σ (U+3A3)
    (0x3A1, 0x3A2),
    (0x3A4, 0x3A9),
    (0x3CA, 0x3FB),  # Coptic
    (0x1F00, 0x1FFE),  # polytonic Greek
    (0x2100, 0x214F),  # letter-like symbols: ℕ ℝ ℂ ℚ ℤ …
    (0x1D49C, 0x1D59F),  # script, double-struck and fraktur letters: 𝓝 𝔼 …
    (0xC0, 0xD6),  # Latin-1 letters without × (U+D7) and ÷ (U+F7)
    (0xD8, 0xF6),
    (0xF8, 0xFF),
    (0x100, 0x17F),  # Latin Extended-A
)
_SUBSCRIPTS = (
    (0x2080, 0x2089),  # ₀ … ₉
    (0x2090, 0x209C),  # ₐ ₑ ₒ ₓ ₔ ₕ ₖ ₗ ₘ ₙ ₚ ₛ ₜ
    (0x1D62, 0x1D6A),  # ᵢ ᵣ ᵤ ᵥ ᵦ ᵧ ᵨ ᵩ ᵪ
    (0x2C7C, 0x2C7C),  # ⱼ
)


def _char_class(ranges: tuple[tuple[int, int], ...]) -> str:
    return "".join(f"\\U{lo:08x}-\\U{hi:08x}" for lo, hi in ranges)


_FIRST_CLASS = "A-Za-z_" + _char_class(_LETTER_LIKE)
_REST_CLASS = _FIRST_CLASS + "0-9'!?" + _char_class(_SUBSCRIPTS)
_IDENT_PART = re.compile(f"[{_FIRST_CLASS}][{_REST_CLASS}]*")
_IS_FIRST = re.compile(f"[{_FIRST_CLASS}]")
_IS_REST = re.compile(f"[{_REST_CLASS}]")


@lru_cache(maxsize=4096)
def is_ident_start(ch: str) -> bool:
    """Lean's `isIdFirst`: whether `ch` may begin an identifier (or a part after a dot)."""
    return ch != "" and _IS_FIRST.fullmatch(ch) is not None


@lru_cache(maxsize=4096)
def is_ident_rest(ch: str) -> bool:
    """Lean's `isIdRest`: letters, ASCII digits, `_ ' ! ?`, letter-likes and subscripts."""
    return ch != "" and _IS_REST.fullmatch(ch) is not None


# Multi-character symbols of Lean's built-in token table (every one checked against the real
# Lean by tests/lean_oracle), and of Lean's and Mathlib's libraries, which the lexer reads too
# (docs/lean-tokens.md). A symbol is the longest of these that matches, else one character.
BUILTIN_SYMBOLS = (
    ",*", "->", ".(", "..", ".{", "::", ":=", ";*", "<-", "<=", "<|", "=>", "@&", "@[", "|*",
    "=/=", "=?=", "|>.", "`(",
)  # fmt: skip
LIBRARY_SYMBOLS = ("<;>", "''", "⁻¹'", "∑'", "∏'")
SYMBOLS = BUILTIN_SYMBOLS + LIBRARY_SYMBOLS
_SYMBOLS_BY_START: dict[str, tuple[str, ...]] = {}
for _symbol in sorted(SYMBOLS, key=len, reverse=True):  # longest first: Lean's longest match
    _SYMBOLS_BY_START[_symbol[0]] = (*_SYMBOLS_BY_START.get(_symbol[0], ()), _symbol)
# Hash commands are tokens of Lean's table: `#checkx` is `#check` and `x`. The built-in ones
# (checked by tests/lean_oracle) and those of Lean's and Mathlib's libraries; a `#word` that
# starts with none of these is kept whole (a command of a library this table does not know).
BUILTIN_HASH_COMMANDS = (
    "#check", "#check_failure", "#eval", "#eval!", "#exit", "#import_path", "#print",
    "#synth", "#version", "#where", "#with_exporting",
)  # fmt: skip
LIBRARY_HASH_COMMANDS = (
    "#reduce", "#guard_msgs", "#guard", "#guard_expr", "#help", "#find", "#lint", "#simp",
    "#norm_num", "#conv", "#whnf", "#instances", "#adaptation_note", "#align",
    "#align_import", "#noalign", "#discr_tree_key", "#discr_tree_simp_key", "#kernel",
    "#time", "#check_tactic", "#check_simp",
)  # fmt: skip
HASH_COMMANDS = BUILTIN_HASH_COMMANDS + LIBRARY_HASH_COMMANDS
_HASH_LONGEST_FIRST = tuple(sorted(HASH_COMMANDS, key=len, reverse=True))
# Words whose string argument Lean reads as `interpolatedStr(term)`: the `{…}` parts are code,
# written `s!"…"`, `s! "…"` (whitespace is allowed) or `dbg_trace "…{e}…"`, `throwError "…{e}…"`.
_INTERPOLATION_PREFIXES = frozenset(
    {"s!", "m!", "f!", "dbg_trace", "throwError", "throwErrorAt", "logInfo", "logWarning"}
)
# Lean's `Char.isWhitespace` is these four; `\t` and a `\r` outside `\r\n` are refused by its
# whitespace reader, and every other character Python calls a space is no token at all.
_LEAN_SPACES = frozenset(" \n")
_WHITESPACE = re.compile(r"\s+")
_QUOTABLE = frozenset("\\\"'rnt")
_HEX = frozenset("0123456789abcdefABCDEF")
_DIGITS = frozenset("0123456789")


class _Lexer:
    """Walks the text, keeping the line and column of the current index and the errors."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.n = len(text)
        self.i = 0
        self.line = 1
        self.col = 0
        self.errors: list[LexError] = []

    def peek(self, ahead: int = 0) -> str:
        j = self.i + ahead
        return self.text[j] if j < self.n else ""

    def startswith(self, prefix: str) -> bool:
        return self.text.startswith(prefix, self.i)

    def advance(self, count: int = 1) -> None:
        end = min(self.i + count, self.n)
        newlines = self.text.count("\n", self.i, end)
        if newlines:
            self.line += newlines
            self.col = end - self.text.rfind("\n", self.i, end) - 1
        else:
            self.col += end - self.i
        self.i = end

    def at_end(self) -> bool:
        return self.i >= self.n

    def error(self, message: str, offset: int) -> None:
        line = self.text.count("\n", 0, offset) + 1
        col = offset - (self.text.rfind("\n", 0, offset) + 1)
        self.errors.append(LexError(message, line, col, offset))


class Lexed(NamedTuple):
    tokens: tuple[Token, ...]
    errors: tuple[LexError, ...]


def tokenize(text: str) -> list[Token]:
    """All tokens of `text`, comments included, whitespace left out."""
    return list(lex(text).tokens)


def lex_errors(text: str) -> list[LexError]:
    """Where Lean's tokenizer would refuse `text` (empty: Lean reads every token)."""
    return list(lex(text).errors)


@lru_cache(maxsize=16)
def lex(text: str) -> Lexed:
    """Tokens and tokenizer errors of `text`, cached: the scans of one file all lex it."""
    lexer = _Lexer(text)
    tokens = tuple(_lex(lexer, inside_braces=False))
    return Lexed(tokens, tuple(sorted(lexer.errors, key=lambda e: e.offset)))


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


def _lex(lexer: _Lexer, *, inside_braces: bool) -> Iterator[Token]:
    """Lex code until the end, or until the `}` that closes an interpolation."""
    depth = 0
    previous: Token | None = None
    before: Token | None = None  # the token before `previous`
    while not lexer.at_end():
        ch = lexer.peek()
        if ch.isspace():
            _skip_whitespace(lexer)
            continue
        if inside_braces and ch == "}" and depth == 0:
            return
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == '"' and previous is not None and _is_interpolation_prefix(previous):
            yield from _lex_interpolated(lexer)
            previous = before = None
            continue
        token = _lex_one(lexer, previous, before)
        previous, before = token, previous
        yield token


def _skip_whitespace(lexer: _Lexer) -> None:
    match = _WHITESPACE.match(lexer.text, lexer.i)
    end = match.end() if match else lexer.i + 1
    if lexer.text[lexer.i : end].strip(" \n"):
        _whitespace_errors(lexer, end)
    lexer.advance(end - lexer.i)


def _whitespace_errors(lexer: _Lexer, end: int) -> None:
    for offset in range(lexer.i, end):
        ch = lexer.text[offset]
        if ch in _LEAN_SPACES:
            continue
        if ch == "\r" and lexer.text.startswith("\n", offset + 1):
            continue  # Lean reads `\r\n` as a line break
        if ch == "\t":
            lexer.error("tabs are not allowed; please configure your editor to expand them", offset)
        elif ch == "\r":
            lexer.error("isolated carriage returns are not allowed", offset)
        else:
            lexer.error(f"U+{ord(ch):04X} is not whitespace to Lean, and no token", offset)


def _is_interpolation_prefix(previous: Token) -> bool:
    # Only whitespace can sit between the prefix and the quote: a comment is a token of its own.
    return previous.kind is Kind.IDENT and previous.text in _INTERPOLATION_PREFIXES


def _lex_one(lexer: _Lexer, previous: Token | None, before: Token | None) -> Token:
    """One token at the current index, in the order of Lean's `whitespace` and `tokenFnAux`."""
    # Each test on `ch` first: a token is lexed for every few characters of every text sent
    # to Lean, so the prefix tests below run only where they can match.
    text, i = lexer.text, lexer.i
    ch = text[i]
    if ch == "-" and lexer.startswith("--"):
        return _take_until(lexer, Kind.COMMENT, _line_end(lexer))
    if ch == "/" and lexer.startswith("/-"):
        return _take_until(lexer, Kind.COMMENT, _block_comment_end(lexer))
    if ch == '"':
        return _take_until(lexer, Kind.STRING, _string_end(lexer, i))
    if ch == "'" and lexer.peek(1) != "'":
        end = _char_end(lexer, i)
        if end is not None:
            return _take_until(lexer, Kind.CHAR, end)
    if ch in _DIGITS:
        if _is_field_index(text, previous, before, i):
            return _take_until(lexer, Kind.NUMBER, _field_index_end(lexer))
        return _take_until(lexer, Kind.NUMBER, _number_end(lexer))
    if ch == "`" and _starts_ident(lexer.peek(1)):
        return _take_until(lexer, Kind.NAME, _ident_end(lexer, i + 1))
    if ch == "`" and lexer.peek(1) == "`" and _starts_ident(lexer.peek(2)):
        # ``foo: Lean reads the symbol `, the character ` and the identifier `foo`; the scans
        # need the name literal whole, so it is one token here (docs/lean-tokens.md).
        return _take_until(lexer, Kind.NAME, _ident_end(lexer, i + 2))
    if ch == "r":
        end = _raw_string_end(lexer)
        if end is not None:
            return _take_until(lexer, Kind.STRING, end)
    if ch == "#":
        end = _hash_command_end(text, i)
        if end is not None:
            return _take_until(lexer, Kind.HASH_COMMAND, end)
    if _starts_ident(ch):
        return _take_until(lexer, Kind.IDENT, _ident_end(lexer, i))
    return _take_until(lexer, Kind.SYMBOL, i + len(_symbol_at(text, i)))


def _symbol_at(text: str, i: int) -> str:
    """The longest known multi-character symbol at `i`, else the one character there."""
    ch = text[i]
    return next((s for s in _SYMBOLS_BY_START.get(ch, ()) if text.startswith(s, i)), ch)


def _take_until(lexer: _Lexer, kind: Kind, end: int) -> Token:
    end = max(end, lexer.i + 1)
    token = Token(kind, lexer.text[lexer.i : end], lexer.line, lexer.col, lexer.i)
    lexer.advance(end - lexer.i)
    return token


def _starts_ident(ch: str) -> bool:
    return ch == "«" or is_ident_start(ch)


def _line_end(lexer: _Lexer) -> int:
    newline = lexer.text.find("\n", lexer.i)
    return lexer.n if newline < 0 else newline


def _block_comment_end(lexer: _Lexer) -> int:
    """End of the `/- … -/` at the index; nesting counts `/-` and `-/` only, as Lean does.

    Lean's reader steps over the three characters `/-X` before it looks for `-/` or a nested
    `/-`: for `/--` and `/-!` the third one is part of the doc-comment token, and for a plain
    comment it is skipped unread. So `/-/- -/` is one whole comment, and `/--/` is not closed.
    """
    text, start = lexer.text, lexer.i
    nesting = 1
    i = start + 3
    while i < lexer.n:
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
    lexer.error("unterminated comment", start)
    return lexer.n


class _Escape(NamedTuple):
    end: int
    error: str | None = None  # Lean's message where it refuses the escape
    at: int = 0  # where Lean reports it


def _escape(text: str, i: int, *, in_string: bool) -> _Escape:
    """The escape whose character after `\\` is at `i` (Lean's `quotedCharCoreFn`)."""
    ch = text[i] if i < len(text) else ""
    if ch and ch in _QUOTABLE:
        return _Escape(i + 1)
    if ch in ("x", "u"):
        for j in range(i + 1, i + (3 if ch == "x" else 5)):
            if j >= len(text) or text[j] not in _HEX:
                return _Escape(j, "invalid hexadecimal numeral", j)
        return _Escape(i + (3 if ch == "x" else 5))
    if in_string and ch == "\n":
        return _string_gap(text, i + 1)
    return _Escape(i + 1, "invalid escape sequence", i)


def _string_gap(text: str, i: int) -> _Escape:
    """After `\\` and a newline, Lean skips whitespace holding no second newline."""
    while i < len(text) and text[i] in " \t\r\n":
        if text[i] == "\n":
            return _Escape(i + 1, "unexpected additional newline in string gap", i)
        i += 1
    return _Escape(i)


def _string_end(lexer: _Lexer, start: int) -> int:
    """End of the string literal whose opening quote is at `start` (escapes honoured)."""
    text = lexer.text
    i = start + 1
    while i < lexer.n:
        ch = text[i]
        if ch == '"':
            return i + 1
        if ch == "\\":
            escape = _escape(text, i + 1, in_string=True)
            if escape.error is not None:
                lexer.error(escape.error, escape.at)
            i = max(escape.end, i + 2)
        else:
            i += 1
    lexer.error("unterminated string literal", start)
    return lexer.n


def _raw_string_end(lexer: _Lexer) -> int | None:
    """End of `r"…"` / `r#"…"#` at the index, or None when `r` starts an identifier."""
    text, start = lexer.text, lexer.i
    i = start + 1
    while i < lexer.n and text[i] == "#":
        i += 1
    if i >= lexer.n or text[i] != '"':
        return None
    closing = '"' + "#" * (i - start - 1)
    found = text.find(closing, i + 1)
    if found < 0:
        lexer.error("unterminated raw string literal", start)
        return lexer.n
    return found + len(closing)


def _char_end(lexer: _Lexer, start: int) -> int | None:
    """End of the character literal at `start` (`'a'`, `'\\n'`, `'\\x41'`), or None.

    Lean reads any `'` not followed by `'` as a character literal and refuses a malformed one
    (reported here, the quote then lexed as a symbol). Mathlib's tokens `''`, `⁻¹'`, `∑'`
    hold a quote too: the symbol table reads those before a quote is looked at alone.
    """
    text = lexer.text
    i = start + 1
    if i >= lexer.n:
        lexer.error("unexpected end of input", i)
        return None
    if text[i] == "\\":
        escape = _escape(text, i + 1, in_string=False)
        if escape.error is not None:
            lexer.error(escape.error, escape.at)
            return None
        i = escape.end
    else:
        i += 1
    if i < lexer.n and text[i] == "'":
        return i + 1
    lexer.error("missing end of character literal", min(i + 1, lexer.n))
    return None


def _ident_end(lexer: _Lexer, start: int) -> int:
    """End of a possibly dotted identifier whose parts are plain or `«quoted»`."""
    text = lexer.text
    i = start
    while i < lexer.n:
        if text[i] == "«":
            close = text.find("»", i + 1)
            if close < 0:
                lexer.error("unterminated identifier escape", i + 1)
                return lexer.n
            i = close + 1
        else:
            match = _IDENT_PART.match(text, i)
            if match is None:
                return i
            i = match.end()
        if i + 1 < lexer.n and text[i] == "." and _starts_ident(text[i + 1]):
            i += 1
        else:
            return i
    return i


def _hash_command_end(text: str, start: int) -> int | None:
    """End of the hash command at `start`: the longest one Lean's table has, else `#word`."""
    known = next((c for c in _HASH_LONGEST_FIRST if text.startswith(c, start)), None)
    if known is not None:
        return start + len(known)
    match = _IDENT_PART.match(text, start + 1)
    return match.end() if match else None


def _is_field_index(text: str, previous: Token | None, before: Token | None, start: int) -> bool:
    """`h.1`: a digit but 0 right after a `.` glued to the token before it (a projection).

    Lean's `fieldIdxFn` reads it; after `h.0` that fails and the ordinary numeral is read.
    """
    if text[start] == "0":
        return False
    return (
        previous is not None
        and before is not None
        and previous.text == "."
        and previous.kind is Kind.SYMBOL
        and previous.end == start
        and before.end == previous.offset
        and before.kind is not Kind.COMMENT
    )


def _field_index_end(lexer: _Lexer) -> int:
    """Lean's `fieldIdxFn`: digits only (no `_`, no `.`, no exponent)."""
    text = lexer.text
    i = lexer.i
    while i < lexer.n and text[i] in _DIGITS:
        i += 1
    return i


def _number_end(lexer: _Lexer) -> int:
    """Lean's `numberFnAux`: the numeral stops after its digits, whatever follows them."""
    text, start = lexer.text, lexer.i
    base = text[start + 1 : start + 2] if text[start] == "0" else ""
    if base and base in "bBoOxX":
        digits = {"b": "01", "o": "01234567", "x": "0123456789abcdefABCDEF"}[base.lower()]
        name = {"b": "binary", "o": "octal", "x": "hexadecimal"}[base.lower()]
        return _take_digits(lexer, start + 2, frozenset(digits), f"{name} number", need=True)
    i = _take_digits(lexer, start + 1, _DIGITS, "decimal number", need=False)
    if i + 1 < lexer.n and text[i] == "." and text[i + 1] == ".":
        return i  # `1..5`: the numeral `1`, then the token `..`
    if i >= lexer.n or text[i] not in ".eE":
        return i
    bare_dot = False
    if text[i] == ".":
        i += 1
        if i < lexer.n and text[i] in _DIGITS:
            i = _take_digits(lexer, i, _DIGITS, "decimal number", need=False)
        else:
            bare_dot = True
    if i < lexer.n and text[i] in "eE":
        exponent = i  # Lean reports a missing exponent at the `e`
        i += 1
        if i < lexer.n and text[i] in "+-":
            i += 1
        if i < lexer.n and text[i] in _DIGITS:
            return _take_digits(lexer, i, _DIGITS, "decimal number", need=False)
        lexer.error("missing exponent digits in scientific literal", exponent)
        return i
    if bare_dot and i < lexer.n and _starts_ident(text[i]):
        message = "unexpected identifier after decimal point; consider parenthesizing the number"
        lexer.error(message, start)
    return i


def _take_digits(lexer: _Lexer, i: int, digits: frozenset[str], what: str, *, need: bool) -> int:
    """Lean's `takeDigitsFn`: digits and `_` separators; a `_` must be followed by a digit."""
    text = lexer.text
    while i < lexer.n:
        if text[i] == "_":
            need = True
        elif text[i] in digits:
            need = False
        else:
            break
        i += 1
    if need:
        lexer.error(f"unexpected character; expected {what}", i)
    return i


def _lex_interpolated(lexer: _Lexer) -> Iterator[Token]:
    """The literal parts of `s!"…{e}…"` as strings and each `{e}` as code."""
    start = opening = lexer.i
    line, col = lexer.line, lexer.col
    lexer.advance()  # the opening quote
    closed = False
    while not lexer.at_end():
        ch = lexer.peek()
        if ch == "\\":
            lexer.advance(2)
        elif ch == '"':
            lexer.advance()
            closed = True
            break
        elif ch == "{":
            yield Token(Kind.STRING, lexer.text[start : lexer.i + 1], line, col, start)
            lexer.advance()
            yield from _lex(lexer, inside_braces=True)
            start, line, col = lexer.i, lexer.line, lexer.col
            lexer.advance()  # the closing brace (a no-op at the end of the text)
        else:
            lexer.advance()
    if not closed:
        lexer.error("unterminated string literal", opening)
    if lexer.i > start:
        yield Token(Kind.STRING, lexer.text[start : lexer.i], line, col, start)


_WORD_KINDS = frozenset(
    {Kind.IDENT, Kind.NUMBER, Kind.NAME, Kind.HASH_COMMAND, Kind.STRING, Kind.CHAR}
)
_LITERAL_KINDS = frozenset({Kind.NUMBER, Kind.STRING, Kind.CHAR, Kind.NAME})


def glued(left: Token, right: Token) -> bool:
    """Whether `right` runs straight into `left`, word against word, with no separator.

    `0instance`, `0x1Faxiom`, `1.5e3run_cmd`, `h.1instance`, `«x»axiom`, `#checkx`,
    `"s"instance`, `xᶜaxiom`: Lean reads two tokens there, and a reader (or a lexer that
    lags Lean's) may read one, so model-written Lean may not contain it. A word is a token of
    `_WORD_KINDS`, or a symbol that reads as a letter or digit (`ᶜ`, `²`, none of them Lean's
    identifier characters). A symbol after a word (`sᶜ`, `x⁻¹`, `h.1`), a word after an
    operator (`?_`, `!b`, `←h`) and a word after a bracket are ordinary Lean.
    """
    if left.end != right.offset or Kind.COMMENT in (left.kind, right.kind):
        return False
    if left.kind is Kind.STRING and left.text.endswith("{"):
        return False  # `s!"…{` then the interpolated code
    if right.kind is Kind.STRING and (right.text.startswith("}") or _prefixes_string(left)):
        return False  # the code's closing `}…"`, or `s!"…"` itself
    ends_word = left.kind is not Kind.SYMBOL or left.text[-1].isalnum()
    starts_word = right.kind in _WORD_KINDS or right.text[0].isalnum()
    return (
        ends_word
        and starts_word
        and (right.kind in _WORD_KINDS or left.kind in _LITERAL_KINDS or left.text.endswith("»"))
    )


def _prefixes_string(token: Token) -> bool:
    return token.kind is Kind.IDENT and token.text in _INTERPOLATION_PREFIXES


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

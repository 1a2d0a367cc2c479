"""Low-level scanning of TeX source: groups, optional arguments, control words.

Positions are offsets into one string; every function is pure and never raises on bad input
(an unbalanced group simply ends at the end of the text).
"""

from __future__ import annotations

import re
from collections.abc import Collection

from paperlint.preflight import lazyre

CONTROL_WORD = lazyre.pattern(r"\\([A-Za-z@]+\*?|.)", re.S)
_SPACE = lazyre.pattern(r"[ \t]*\n?[ \t]*")


def skip_spaces(text: str, pos: int, *, newline: bool = True) -> int:
    """Skip blanks and at most one newline (a blank line is a paragraph and stops TeX)."""
    if newline:
        return _SPACE.match(text, pos).end()  # type: ignore[union-attr]
    while pos < len(text) and text[pos] in " \t":
        pos += 1
    return pos


def read_group(text: str, pos: int) -> tuple[str, int] | None:
    """Read a `{...}` group (or a single token) at `pos`; return its content and end."""
    span = read_group_span(text, pos)
    if span is None:
        return None
    start, stop, after = span
    return text[start:stop], after


def read_group_span(text: str, pos: int) -> tuple[int, int, int] | None:
    """Where the `{...}` group (or single token) at `pos` lies: the start and end of its
    content, and the offset after it (the content runs to the text's end when unbalanced)."""
    pos = skip_spaces(text, pos)
    if pos >= len(text):
        return None
    if text[pos] != "{":
        if text[pos] == "\\":
            match = CONTROL_WORD.match(text, pos)
            end = match.end() if match is not None else pos + 1  # a lone `\\` ends the text
            return pos, end, end
        if text[pos] in "}[]":
            return None
        return pos, pos + 1, pos + 1
    end = find_closing_brace(text, pos)
    return pos + 1, end, min(end + 1, len(text))


def read_optional_span(text: str, pos: int) -> tuple[int, int, int] | None:
    """Where the `[...]` at `pos` lies: its content's start and end, and the offset after."""
    found = read_optional(text, pos)
    if found is None:
        return None
    content, after = found
    return after - 1 - len(content), after - 1, after


def find_closing_brace(text: str, pos: int) -> int:
    """Offset of the `}` that closes the `{` at `pos` (len(text) when unbalanced)."""
    whole = _GROUP.match(text, pos)
    if whole is not None:  # most groups: balanced and shallow, matched in one regex call
        return whole.end() - 1
    depth = 0
    for match in _BRACE_TOKEN.finditer(text, pos):
        token = match.group(0)
        if token == "{":
            depth += 1
        elif token == "}":
            depth -= 1
            if depth == 0:
                return match.start()
    return len(text)


_BRACE_TOKEN = lazyre.pattern(r"\\.|[{}]", re.S)
_BALANCE_TOKEN = lazyre.pattern(r"\\(?:begin|end|label)\s*\{|\\.|[{}]", re.S)
_ESCAPE = lazyre.pattern(r"\\.", re.S)
_INNERMOST = lazyre.pattern(r"\{[^{}]*\}")
_NOT_BRACE = lazyre.pattern(r"[^{}]+")
_CLOSES_THEN_OPENS = lazyre.pattern(r"(\}*)(\{*)")
_PEEL_LEVELS = 32  # deeper than any paper's nesting; past it the token walk decides
_KEPT_OPEN = 4096  # open braces whose places `unbalanced_braces` keeps (the outermost)
_CHUNK = 1 << 18
"""Characters peeled at a time: a few copies of one chunk, not of the whole body (a 39.5 MB
paper's copies were 220 MiB of preflight's peak)."""


def unbalanced_braces(text: str, start: int, end: int, limit: int) -> tuple[list[int], list[int]]:
    """In `text[start:end]`: the offsets of the first `limit` `{` never closed, and of the first
    `limit` `}` that close nothing, tokenised as `_BRACE_TOKEN` does. The `{` of a `\\begin`,
    `\\end` or `\\label` is counted but not listed: the walk reports a missing `}` there itself
    (`runaway-argument`).

    Balanced text, the usual case, is told apart at C speed (`_balanced`); only text that is
    not is walked token by token, for the places (timings in docs/preflight.md). The walk keeps
    the places of the `_KEPT_OPEN` outermost open braces only, and counts those above them: a
    file of ten million `{` took 1.1 GB keeping them all. So a never-closed `{` above that
    many unclosed `\\begin{` is counted, not listed."""
    if _balanced(text, start, end):
        return [], []
    kept: list[tuple[int, bool]] = []  # the outermost open braces, outermost first
    above = 0  # open braces above those
    extra: list[int] = []
    for match in _BALANCE_TOKEN.finditer(text, start, end):
        token = match.group(0)
        if token == "}":
            if above:
                above -= 1
            elif kept:
                kept.pop()
            elif len(extra) < limit:
                extra.append(match.start())
            continue
        if token == "{":
            opened = (match.start(), True)
        elif len(token) > 2:  # `\\begin{`, `\\end{`, `\\label{`; not an escape (`\\{`)
            opened = (match.end() - 1, False)
        else:
            continue
        if above or len(kept) >= _KEPT_OPEN:
            above += 1
        else:
            kept.append(opened)
    return [at for at, listed in kept if listed][:limit], extra


def _balanced(text: str, start: int, end: int) -> bool:
    """Whether every brace of `text[start:end]` is matched (escapes dropped), a chunk at a time:
    each chunk's escapes dropped and innermost groups peeled a level at a time leaves its
    unmatched `}`s, then its unmatched `{`s; the `}`s close what the chunks before left open.
    A chunk ends after a character that is no backslash, where no escape (`\\.`) starts: so
    no escape spans two chunks, and each is read as the whole would be.
    False also when a chunk nests deeper than `_PEEL_LEVELS` (the token walk decides)."""
    depth = 0
    pos = start
    while pos < end:
        stop = min(end, pos + _CHUNK)
        while pos < stop < end and text[stop - 1] == "\\":
            stop -= 1
        if stop == pos:  # nothing but backslashes up to the chunk's end
            stop = end
        peeled = _ESCAPE.sub("", text[pos:stop])
        for _ in range(_PEEL_LEVELS):
            peeled, found = _INNERMOST.subn("", peeled)
            if not found:
                break
        left = _NOT_BRACE.sub("", peeled)
        shape = _CLOSES_THEN_OPENS.fullmatch(left)
        if shape is None or len(shape.group(1)) > depth:
            return False
        depth += len(shape.group(2)) - len(shape.group(1))
        pos = stop
    return depth == 0


def _nested_group(depth: int) -> str:
    """A balanced `{...}` nesting at most `depth` groups, tokenised as `_BRACE_TOKEN` does (a
    backslash takes the next character). Every quantifier is possessive: the regex never
    backtracks, so a failed match (unbalanced, or deeper) costs one scan, and the loop above
    then decides."""
    run = r"[^{}\\]*+"
    inner = r"\\." if depth == 1 else r"\\.|" + _nested_group(depth - 1)
    return r"\{" + run + r"(?:(?:" + inner + r")" + run + r")*+\}"


_GROUP = lazyre.pattern(_nested_group(6), re.S)
"""Six levels hold every group preflight closes in four of the shared corpus's five largest
papers (6,709 groups, 4.3x faster than the loop alone: 3.3 against 14.5 ms); pps-unwrapping,
with 733 `\\newcommand`s and a 228 KB `.bib`, builds in 23-25 instead of 28-37 ms CPU
(2026-12-04)."""


def read_optional(text: str, pos: int, *, newline: bool = True) -> tuple[str, int] | None:
    """Read `[...]` at `pos` by LaTeX's rule: it ends at the first `]` outside braces."""
    start = skip_spaces(text, pos, newline=newline)
    if start >= len(text) or text[start] != "[":
        return None
    depth = 0
    i = start + 1
    while True:  # from one character that matters to the next (`_OPTIONAL_STOP`)
        found = _OPTIONAL_STOP.search(text, i)
        if found is None:
            return None
        i = found.start()
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(depth - 1, 0)
        elif ch == "]" and depth == 0:
            return text[start + 1 : i], i + 1
        elif ch == "\n" and text.startswith("\n", i + 1) and depth == 0:
            return None  # a paragraph break inside: not an optional argument after all
        i += 1


_OPTIONAL_STOP = lazyre.pattern(r"[\\{}\]\n]")


def calls_none(body: str, names: Collection[str]) -> bool:
    """Whether `body` surely calls none of the macros `names` (without their backslash): they
    are at most `FEW_NAMES` and no `\\name` is in it. Plain substring tests, far cheaper than a
    regex over the body; False says nothing (many names, or one of them appears)."""
    return len(names) <= FEW_NAMES and not any("\\" + name in body for name in names)


FEW_NAMES = 32  # macros few enough to look for one by one


def read_star(text: str, pos: int) -> tuple[bool, int]:
    """Read an optional `*` at `pos`."""
    start = skip_spaces(text, pos, newline=False)
    if start < len(text) and text[start] == "*":
        return True, start + 1
    return False, pos


def read_args(text: str, pos: int, spec: str) -> tuple[list[str | None], int]:
    """Read arguments by a pylatexenc-like spec: `{` mandatory, `[` optional, `*` star."""
    values: list[str | None] = []
    for kind in spec:
        if kind == "*":
            star, pos = read_star(text, pos)
            values.append("*" if star else None)
        elif kind == "[":
            opt = read_optional(text, pos)
            values.append(opt[0] if opt else None)
            pos = opt[1] if opt else pos
        else:
            group = read_group(text, pos)
            values.append(group[0] if group else None)
            pos = group[1] if group else pos
    return values, pos


def strip_braces(text: str) -> str:
    """`{1.{1}}` → `1.1`: TeX grouping braces carry no printed text."""
    return text.replace("{", "").replace("}", "").strip()


def split_keys(text: str) -> list[str]:
    """Split a comma-separated key list, keeping inner spaces of keys verbatim."""
    return [key.strip() for key in text.split(",") if key.strip()]


def parse_keyvals(text: str) -> dict[str, str]:
    """Parse `a=b, c={d,e}, flag` into a dict (values without outer braces)."""
    out: dict[str, str] = {}
    depth = 0
    current = ""
    parts: list[str] = []
    for ch in text:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    for part in parts:
        key, _, value = part.partition("=")
        value = value.strip()
        if value.startswith("{") and value.endswith("}"):
            value = value[1:-1]
        if key.strip():
            out[key.strip()] = value
    return out

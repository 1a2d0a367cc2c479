"""Pre-pass on one file's text: blank what TeX never typesets, keeping every line in place.

Blanking replaces characters by spaces and keeps newlines, so an offset in the cleaned text is
the offset in the file: the source map needs no extra bookkeeping.
"""

from __future__ import annotations

import re

VERBATIM_ENVS = (
    "verbatim",
    "verbatim*",
    "Verbatim",
    "BVerbatim",
    "LVerbatim",
    "lstlisting",
    "minted",
    "alltt",
    "comment",
    "filecontents",
    "filecontents*",
    "spverbatim",
)
_SCAN = re.compile(
    r"(?P<verb>\\verb\*?(?P<d>[^A-Za-z\s*])[^\n]*?(?P=d))"
    r"|\\begin\s*\{(?P<venv>[A-Za-z*]+)\}"
    r"|(?P<esc>\\.)"
    r"|(?P<pct>%[^\n]*)",
    re.S,
)
_EXCLUDE = re.compile(r"\\excludecomment\s*\{([^}]*)\}")
_CONDITIONAL = re.compile(
    r"\\(?:(?P<false>iffalse|if\s*0(?![0-9\\]))|(?P<open>if[A-Za-z@]*)|(?P<else>else)|(?P<fi>fi|repeat))"
    r"(?![A-Za-z@])"
)
# commands whose names start with `if` but take arguments instead of opening a branch that a
# `\\fi` closes (LaTeX's ifthen, etoolbox, xifthen)
NOT_CONDITIONALS = frozenset(
    {
        "ifthenelse",
        "iftoggle",
        "ifboolexpr",
        "ifboolexpe",
        "ifbool",
        "ifstrequal",
        "ifstrempty",
        "ifblank",
        "ifdefstring",
        "ifdefstrequal",
        "ifcsstring",
        "ifdef",
        "ifundef",
        "ifcsdef",
        "ifcsundef",
        "ifdefmacro",
        "ifcsmacro",
        "ifdefempty",
        "ifcsempty",
        "ifdefvoid",
        "ifcsvoid",
        "ifdefequal",
        "ifcsequal",
        "ifdefltxprotect",
        "ifdefcounter",
        "ifcscounter",
        "ifltxcounter",
        "ifdeflength",
        "ifcslength",
        "ifnumcomp",
        "ifnumequal",
        "ifnumgreater",
        "ifnumless",
        "ifnumodd",
        "ifdimcomp",
        "ifdimequal",
        "ifdimgreater",
        "ifdimless",
        "ifinlist",
        "ifinlistcs",
        "ifrmnum",
        "ifnottoggle",
    }
)


def blank(text: str) -> str:
    """Spaces for every character but newlines."""
    return re.sub(r"[^\n]", " ", text)


def strip_comments_and_verbatim(
    text: str, extra_envs: tuple[str, ...] = (), keep: tuple[str, ...] = ()
) -> str:
    """Blank `%` comments, `\\verb`, and verbatim-like and comment environments."""
    envs = (set(VERBATIM_ENVS) | set(extra_envs)) - set(keep)
    out: list[str] = []
    pos = 0
    while True:
        match = _SCAN.search(text, pos)
        if match is None:
            out.append(text[pos:])
            return "".join(out)
        out.append(text[pos : match.start()])
        end = match.end()
        if match.group("pct") is not None:
            out.append(blank(match.group(0)))
        elif match.group("venv") is not None and match.group("venv") in envs:
            closing = text.find("\\end{" + match.group("venv") + "}", end)
            end = len(text) if closing < 0 else closing + len(match.group("venv")) + 6
            out.append(blank(text[match.start() : end]))
        elif match.group("verb") is not None:
            out.append(blank(match.group(0)))
        else:
            out.append(match.group(0))
        pos = end


def excluded_comment_envs(text: str) -> tuple[str, ...]:
    """Environments declared with `\\excludecomment{name}` (comment package)."""
    return tuple(m.group(1).strip() for m in _EXCLUDE.finditer(text))


def blank_false_conditionals(text: str) -> str:
    """Blank `\\iffalse … \\fi` and `\\if0 … \\fi` (nesting-aware; an `\\else` branch stays).
    `\\if0\\blind` compares 0 with what `\\blind` expands to: the walk evaluates it."""
    spans: list[tuple[int, int]] = []
    pos = 0
    while True:
        match = _find_conditional(text, pos)
        if match is None or match.group("false") is None:
            if match is None:
                break
            pos = match.end()
            continue
        start = match.start()
        depth = 0
        scan = match.end()
        while True:
            inner = _find_conditional(text, scan)
            if inner is None:
                spans.append((start, len(text)))
                scan = len(text)
                break
            scan = inner.end()
            if inner.group("open") or inner.group("false"):
                depth += 1
            elif inner.group("fi"):
                if depth == 0:
                    spans.append((start, inner.end()))
                    break
                depth -= 1
            elif inner.group("else") and depth == 0:
                spans.append((start, inner.end()))
                scan = _blank_matching_fi(text, scan, spans)
                break
        pos = scan
    return _apply_blanks(text, spans)


def _blank_matching_fi(text: str, pos: int, spans: list[tuple[int, int]]) -> int:
    # The live `\else` branch stays; only its closing `\fi` is blanked.
    depth = 0
    while True:
        inner = _find_conditional(text, pos)
        if inner is None:
            return len(text)
        pos = inner.end()
        if inner.group("open") or inner.group("false"):
            depth += 1
        elif inner.group("fi"):
            if depth == 0:
                spans.append((inner.start(), inner.end()))
                return pos
            depth -= 1


# `\\let\\if@nobreak\\iffalse`, `\\newif\\ifdraft`, `\\def\\ifmine`: a conditional named or
# assigned, not one that opens a branch
_NAMED = re.compile(r"\\(?:let|newif|def|gdef|edef|xdef)\s*(?:\\[A-Za-z@]+\s*=?\s*)?$")


def is_named_conditional(text: str, start: int) -> bool:
    """Is the `\\if...` at `start` a name being defined or assigned, not a test?"""
    return _NAMED.search(text, max(0, start - 60), start) is not None


def _find_conditional(text: str, pos: int) -> re.Match[str] | None:
    while True:
        match = _CONDITIONAL.search(text, pos)
        if match is None:
            return None
        named = is_named_conditional(text, match.start())
        if not named and match.group("open") not in NOT_CONDITIONALS:
            return match
        pos = match.end()


def _apply_blanks(text: str, spans: list[tuple[int, int]]) -> str:
    if not spans:
        return text
    out: list[str] = []
    pos = 0
    for start, end in sorted(spans):
        if start < pos:
            start = pos
        out.append(text[pos:start])
        out.append(blank(text[start:end]))
        pos = max(pos, end)
    out.append(text[pos:])
    return "".join(out)


def clean(text: str, *, user_comment_env: bool = False) -> str:
    """The full pre-pass for one file; `user_comment_env` when the paper defines its own
    `comment` environment (then it is content, not the comment package's)."""
    envs = excluded_comment_envs(text)
    text = strip_comments_and_verbatim(text, envs, keep=("comment",) if user_comment_env else ())
    return blank_false_conditionals(text)


def defines_comment_env(text: str) -> bool:
    return re.search(r"\\(?:re)?newenvironment\*?\s*\{comment\}", text) is not None

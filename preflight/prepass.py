"""Pre-pass on one file's text: blank what TeX never typesets, keeping every line in place.

Blanking replaces characters by spaces and keeps newlines, so an offset in the cleaned text is
the offset in the file: the source map needs no extra bookkeeping.
"""

from __future__ import annotations

import re

from paperlint.preflight import lazyre

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
# comment's `\excludecomment{name}`, version's and versions' `\excludeversion[text]{name}`
_EXCLUDE = lazyre.pattern(r"\\exclude(?:comment|version)\s*(?:\[[^\]]*\])?\s*\{([^}]*)\}")
_CONDITIONAL = lazyre.pattern(
    r"\\(?:(?P<false>iffalse|if\s*0(?![0-9\\]))|(?P<open>if[A-Za-z@]*)|(?P<else>else)|(?P<fi>fi|repeat))"
    r"(?![A-Za-z@])"
)
# etoolbox's tests (etoolbox.sty v2.5k, 2020/10/05): each reads this many arguments, then
# `{true}{false}`; none opens a branch that a `\\fi` closes (`conditionals.etoolbox_test`)
ETOOLBOX_TESTS: dict[str, int] = {
    **dict.fromkeys(("iftoggle", "nottoggle", "ifbool", "notbool", "ifboolexpr", "ifboolexpe"), 1),
    **dict.fromkeys(("ifdef", "ifundef", "ifcsdef", "ifcsundef", "ifdefmacro", "ifcsmacro"), 1),
    **dict.fromkeys(("ifdefparam", "ifcsparam", "ifdefprefix", "ifcsprefix"), 1),
    **dict.fromkeys(("ifdefprotected", "ifcsprotected", "ifdefltxprotect", "ifcsltxprotect"), 1),
    **dict.fromkeys(("ifdefempty", "ifcsempty", "ifdefvoid", "ifcsvoid"), 1),
    **dict.fromkeys(("ifdefcounter", "ifcscounter", "ifltxcounter"), 1),
    **dict.fromkeys(("ifdeflength", "ifcslength", "ifdefdimen", "ifcsdimen"), 1),
    **dict.fromkeys(("ifstrempty", "ifblank", "notblank", "ifnumodd", "ifrmnum"), 1),
    **dict.fromkeys(("ifdefequal", "ifcsequal", "ifdefstring", "ifcsstring"), 2),
    **dict.fromkeys(("ifdefstrequal", "ifcsstrequal", "ifstrequal"), 2),
    **dict.fromkeys(("ifnumequal", "ifnumgreater", "ifnumless"), 2),
    **dict.fromkeys(("ifdimequal", "ifdimgreater", "ifdimless"), 2),
    **dict.fromkeys(("ifinlist", "xifinlist", "ifinlistcs", "xifinlistcs"), 2),
    **dict.fromkeys(("ifnumcomp", "ifdimcomp"), 3),
}
# commands whose names start with `if` but take arguments instead of opening a branch that a
# `\\fi` closes (etoolbox, LaTeX's ifthen, xifthen)
NOT_CONDITIONALS = frozenset(
    {name for name in ETOOLBOX_TESTS if name.startswith("if")}
    | {"ifthenelse", "ifnottoggle", "ifpatchable"}
)


def blank(text: str) -> str:
    """Spaces for every character but newlines."""
    if "\n" not in text:
        return " " * len(text)
    return "\n".join(" " * len(line) for line in text.split("\n"))


# What `strip_comments_and_verbatim` stops at: `\verb`, `\begin{name}`, a `%` comment, and
# the two escapes that change what follows them (`\\`, `\%`). No other `\x` needs
# consuming: what follows it starts none of these. Both branches start with a plain character,
# so the regex engine skips from one `\` or `%` to the next instead of trying the pattern at
# every position (five times faster on a large paper). Whether `name` is verbatim-like is a
# set lookup, not part of the pattern: a paper's `\excludecomment` list can be long.
_SCAN = lazyre.pattern(
    r"\\(?:verb\*?(?P<d>[^A-Za-z\s*])[^\n]*?(?P=d)|begin\s*\{(?P<venv>[A-Za-z*]+)\}|[\\%])"
    r"|%[^\n]*",
    re.S,
)


def strip_comments_and_verbatim(
    text: str, extra_envs: tuple[str, ...] = (), keep: tuple[str, ...] = ()
) -> str:
    """Blank `%` comments, `\\verb`, and verbatim-like and comment environments."""
    if "%" not in text and "\\verb" not in text and "\\begin" not in text:
        return text
    envs = (set(VERBATIM_ENVS) | set(extra_envs)) - set(keep)
    search = _SCAN.search
    out: list[str] = []
    copied = pos = 0  # text[:copied] is in `out`; the scan resumes at `pos`
    while (match := search(text, pos)) is not None:
        start, end = match.span()
        if text[start] == "%":  # a comment, the usual match: one line, so only spaces
            out.append(text[copied:start])
            out.append(" " * (end - start))
            copied = pos = end
            continue
        if match.group("d") is None:
            name = match.group("venv")
            if name is None or name not in envs:  # an escape, or an environment to read
                pos = end
                continue
            closing = text.find("\\end{" + name + "}", end)
            end = len(text) if closing < 0 else closing + len(name) + 6
        out.append(text[copied:start])
        out.append(blank(text[start:end]))
        copied = pos = end
    if not out:
        return text
    out.append(text[copied:])
    return "".join(out)


def excluded_comment_envs(text: str) -> tuple[str, ...]:
    """Environments declared with `\\excludecomment{name}` (comment package) or
    `\\excludeversion{name}` (version and versions packages): their content is not typeset."""
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
_NAMED = lazyre.pattern(r"\\(?:let|newif|def|gdef|edef|xdef)\s*(?:\\[A-Za-z@]+\s*=?\s*)?$")


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


_DEFINES_COMMENT = lazyre.pattern(r"\\(?:re)?newenvironment\*?\s*\{comment\}")


def defines_comment_env(text: str) -> bool:
    return _DEFINES_COMMENT.search(text) is not None

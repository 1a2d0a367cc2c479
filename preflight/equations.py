"""Equation numbering (docs/latex-notes.md §9): per-line numbers in `align`-like environments,
`\\tag`, `\\notag`/`\\nonumber`, starred forms."""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from paperlint.preflight import lazyre, texscan
from paperlint.preflight.counters import Counters

SINGLE = {"equation", "multline", "displaymath", "dmath", "math"}
MULTI = {
    "align",
    "gather",
    "flalign",
    "alignat",
    "xalignat",
    "xxalignat",
    "eqnarray",
    "IEEEeqnarray",
}
EQUATION_ENVS = SINGLE | MULTI | {e + "*" for e in SINGLE | MULTI}
_LABEL = lazyre.pattern(r"\\label\s*\{([^}]*)\}")
_TAG = lazyre.pattern(r"\\tag(\*?)\s*\{")
_NOTAG = lazyre.pattern(r"\\(?:notag|nonumber)(?![A-Za-z@])")
# What a row split looks at: `\\\\`, braces, environments (and any control word starting with
# `begin`/`end`: `\\begingroup` nests too), `\\intertext`, and the escapes `\\{`, `\\}`. No
# other control word matters and nothing starts inside one. A group with no brace and no
# backslash inside (`_{i}`, `^{2}`) is one token, which changes nothing: its `{` and `}` would
# cancel out, and nothing else stands in it. Each branch starts with a plain character, so
# the regex engine skips from one `\\`, `{` or `}` to the next.
_ROW_TOKEN = lazyre.pattern(
    r"\\(?:\\|(?:begin|end)(?:\s*\{[^}]*\}|[A-Za-z@]*)"
    r"|(?:short)?intertext(?![A-Za-z@])|[^A-Za-z@\n])"
    r"|\{[^{}\\]*+\}|\{|\}"
)


def split_rows(body: str) -> list[str]:
    """Split at `\\\\` outside braces and nested environments."""
    if "\\\\" not in body and "intertext" not in body:
        return [body]  # nothing to split at (a display of one row, as many are)
    rows: list[str] = []
    depth = 0
    start = 0
    spaced_end = False
    for match in _ROW_TOKEN.finditer(body):
        token = match.group(0)
        if len(token) > 1 and token[0] == "{":
            continue  # a group with nothing in it that counts
        if token == "{" or token.startswith("\\begin"):
            depth += 1
        elif token == "}" or token.startswith("\\end"):
            depth -= 1
        elif token.endswith("intertext") and depth <= 0 and body[start : match.start()].strip():
            # amsmath's \\intertext ends an unfinished row itself (`\\ifvmode\\else\\\\`)
            rows.append(body[start : match.start()])
            start, spaced_end = match.start(), False
        elif token == "\\\\" and depth <= 0:
            rows.append(body[start : match.start()])
            skip = _ROW_SKIP.match(body, match.end())
            start = skip.end() if skip else match.end()
            spaced_end = "[" in body[match.end() : start]
    rows.append(body[start:])
    if len(rows) > 1 and not rows[-1].strip() and not spaced_end:
        rows.pop()  # a trailing `\\` opens no numbered line; `\\[1em]` does (amsmath)
    return rows


def number_rows(
    env: str,
    body: str,
    counters: Counters,
    expanders: dict[str, str] | None = None,
    pending: list[str] | None = None,
    referenced: Referenced | None = None,
) -> list[tuple[str | None, list[str]]]:
    """Each row's printed number (None when unnumbered) and its labels; steps `equation`.

    A label in an unnumbered row waits for the next numbered row of the same display, as
    amsmath's `\\df@label` (and eqnarray's pre-stepped counter) do. amsmath's `equation`
    steps the counter before its body, so a label there writes that number even when
    `\\nonumber` then takes it back (the kernel's `equation` would print the number, which
    no paper writing `\\nonumber` there wants: amsmath is taken as loaded). With
    `referenced` (autonum, mathtools' `showonlyrefs`) a row is numbered only when one of its
    labels is referenced somewhere in the document.
    """
    if referenced is not None and env in referenced.envs:
        return _number_referenced_rows(env, body, counters, expanders or {}, referenced)
    base = env.rstrip("*")
    starred = env.endswith("*") or base in ("displaymath", "math")
    body = expand_macros(body, expanders or {})
    rows = split_rows(body) if base in MULTI else [body]
    out: list[tuple[str | None, list[str]]] = []
    pending = list(pending or [])
    for row in rows:
        _counter_ops(row, counters)
        labels = pending + [m.group(1).strip() for m in _LABEL.finditer(row)]
        tag = _TAG.search(row)
        if tag is not None:
            group = texscan.read_group(row, tag.end() - 1)
            out.append((tag_text(group[0] if group else "", counters), labels))
        elif not starred and base in SINGLE and _NOTAG.search(row):
            counters.step("equation")
            out.append((counters.render("equation"), labels))
            counters.add("equation", -1)
        elif starred or _NOTAG.search(row):
            pending = labels
            continue
        else:
            counters.step("equation")
            out.append((counters.render("equation"), labels))
        pending = []
    if pending:
        out.append((None, pending))
    return out


class Referenced(NamedTuple):
    """The labels a document references and the displays whose numbers depend on them."""

    keys: frozenset[str]
    envs: frozenset[str]
    # autonum writes no `\\label` at all for an unreferenced row (its patched `\\label`
    # does nothing); under mathtools' the label writes the number current before the display
    drops_unreferenced: bool


# The reference commands that mark a label as referenced, and the displays each package
# patches: autonum (v0.3.11) patches `\\ref` (so `\\eqref`, which calls it) and
# cleveref's `\\cref`, and turns `\\[ … \\]` into `equation`; mathtools counts `\\eqref` and
# `\\refeq`.
ONLY_REFERENCED = {
    "autonum": (
        frozenset({"ref", "eqref", "cref"}),
        frozenset({"equation", "gather", "multline", "flalign", "align", "alignat", "\\["}),
    ),
    "mathtools": (
        frozenset({"eqref", "refeq"}),
        frozenset({"equation", "gather", "multline", "flalign", "align", "alignat"}),
    ),
}


def _number_referenced_rows(
    env: str, body: str, counters: Counters, expanders: dict[str, str], referenced: Referenced
) -> list[tuple[str | None, list[str]]]:
    base = env.rstrip("*")
    body = expand_macros(body, expanders)
    rows = split_rows(body) if base in MULTI else [body]
    out: list[tuple[str | None, list[str]]] = []
    for row in rows:
        _counter_ops(row, counters)
        labels = [m.group(1).strip() for m in _LABEL.finditer(row)]
        shown = [key for key in labels if key in referenced.keys]
        tag = _TAG.search(row)
        if tag is not None:
            group = texscan.read_group(row, tag.end() - 1)
            out.append((tag_text(group[0] if group else "", counters), labels))
        elif shown and not _NOTAG.search(row):
            counters.step("equation")
            kept = shown if referenced.drops_unreferenced else labels
            out.append((counters.render("equation"), kept))
        elif labels and not referenced.drops_unreferenced:
            out.append((None, labels))
    return out


_STYLED = lazyre.pattern(r"\\(?:arabic|roman|Roman|alph|Alph|fnsymbol)\s*\{[^{}\\]*\}")
"""A counter in one of LaTeX's printed styles, `\\arabic{equation}`: a `\\tag` prints its value."""


def tag_text(raw: str, counters: Counters) -> str:
    """A `\\tag` as `\\label` records it: counters expanded, other control words kept as
    TeX writes them (followed by one space), grouping braces dropped."""

    def expand(match: re.Match[str]) -> str:
        word = match.group(1)
        if word.startswith("the") and word[3:] in counters.the:
            return counters.render(word[3:])
        if word in counters.macros:
            return counters.expand(counters.macros[word], 0)
        return "\\" + word + " "

    raw = _STYLED.sub(lambda m: counters.render_template(m.group(0)), raw)
    return texscan.strip_braces(re.sub(r"\\([A-Za-z@]+)\s*", expand, raw)).strip()


def affects_numbering(code: str) -> bool:
    """Whether TeX code tags, un-numbers or steps an equation."""
    return bool(_TAG.search(code) or _NOTAG.search(code) or _OPS.search(code))


def expand_macros(body: str, expanders: dict[str, str]) -> str:
    """Expand the user macros that tag or step counters (e.g. `\\numberthis`)."""
    if not expanders or "\\" not in body:
        return body
    if texscan.calls_none(body, expanders):
        return body
    if len(expanders) > texscan.FEW_NAMES:
        return _CALL.sub(lambda m: expanders.get(m.group(1), m.group(0)), body)
    calls = _calls_of(tuple(sorted(expanders)))
    return body if calls is None else calls.sub(lambda m: expanders[m.group(1)], body)


@functools.lru_cache(maxsize=256)
def _calls_of(names: tuple[str, ...]) -> re.Pattern[str] | None:
    """`_CALL` for these names only (None: no name can be called): the same uses, found
    without a Python call for each other control word of a display."""
    words = [name for name in names if _WORD.fullmatch(name)]
    if not words:
        return None
    return re.compile(r"\\(" + "|".join(words) + r")(?![A-Za-z@])")


_WORD = lazyre.pattern(r"[A-Za-z@]+")


def _counter_ops(row: str, counters: Counters) -> None:
    for match in _OPS.finditer(row):
        name = match.group(2).strip()
        if match.group(1) == "addtocounter":
            value = re.match(r"\s*\{\s*([-+]?\d+)\s*\}", row[match.end() :])
            if value:
                counters.add(name, int(value.group(1)))
        elif match.group(1) == "setcounter":
            value = re.match(r"\s*\{\s*([-+]?\d+)\s*\}", row[match.end() :])
            if value:
                counters.set(name, int(value.group(1)))
        else:
            counters.step(name)


_ROW_SKIP = lazyre.pattern(r"\*?\s*(?:\[[^\]]*\])?")
_CALL = lazyre.pattern(r"\\([A-Za-z@]+)(?![A-Za-z@])")
_OPS = lazyre.pattern(r"\\(addtocounter|setcounter|stepcounter|refstepcounter)\s*\{([^}]*)\}")

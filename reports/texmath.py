"""A paper's formulas as MathML (no script, no network); `texhtml` renders the prose around them.

Chromium, Firefox and Safari render MathML natively, so the report needs no MathJax and keeps
its Content-Security-Policy with no script at all. The steps are pure string functions:

1. `expand_macros`: the paper's own `\\newcommand`s (from the inventory) are expanded first, so
   `$\\mean(a,b)$` reaches the converter as `m(a,b)`.
2. `split_math`: cut the text into prose and math runs (`$…$`, `\\(…\\)`, `$$…$$`, `\\[…\\]`,
   the display environments of amsmath).
3. math runs go through `latex2mathml` (`convert_math`), after commands it lacks are rewritten
   to ones it knows (`\\hdots`, `\\ensuremath`, `\\nicefrac`); a command no one could know
   here (a package's `\\Cr{co}`) is shown as its source in the formula, which is rendered
   around it.

The paper is untrusted and the converter passes some input through (`\\text{<b>}` stays markup,
`\\href` becomes an attribute), so its output is parsed and rebuilt from an allowlist of MathML
elements and attributes; anything else, or a formula that fails to convert, is shown as its
escaped TeX source instead. Nothing the paper writes reaches the page as markup.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from paperlint.preflight import texscan
from paperlint.preflight.expansion import read_call
from paperlint.preflight.macros import NO_VALUE, ArgSpec, substitute
from paperlint.preflight.model import Macro
from paperlint.reports.mathml import MARK, sanitise_mathml

MAX_EXPANDED = 20_000  # characters: a macro bomb stops growing here
MAX_PASSES = 30
DISPLAY_ENVS = (
    "equation",
    "equation*",
    "align",
    "align*",
    "gather",
    "gather*",
    "multline",
    "multline*",
    "eqnarray",
    "eqnarray*",
    "displaymath",
    "flalign",
    "flalign*",
    # breqn's: one equation broken over lines as TeX sees fit
    "dmath",
    "dmath*",
    "dseries",
    "dseries*",
)


@dataclass(frozen=True)
class TexRun:
    """One piece of a statement: prose, or math with its display mode."""

    text: str
    math: bool = False
    display: bool = False


def expand_macros(tex: str, macros: Sequence[Macro]) -> str:
    """Expand the paper's macros until none is left (bounded: a bomb is cut, not followed).

    A macro whose expansion reaches itself again is left alone: TeX would loop on it too,
    unless it was made by `\\let` (`\\let\\oldnorm\\norm \\def\\norm{…\\oldnorm…}`), whose
    snapshot of the old meaning a table of definitions cannot hold. `\\@ifstar{A}{B}` in a
    body takes A before a `*` and B otherwise, as LaTeX's does."""
    named = [m for m in macros if m.name.startswith("\\") and len(m.name) > 1]
    allowed = _expandable(tuple((m.name, m.definition) for m in named))
    table = {m.name: m for m in named if m.name in allowed}
    if not table:
        return tex
    pattern = re.compile(r"\\([A-Za-z@]+|[^A-Za-z@\s])")
    for _ in range(MAX_PASSES):
        out: list[str] = []
        pos, changed = 0, False
        for match in pattern.finditer(tex):
            if match.start() < pos:
                continue
            expanded = _expand_one(tex, match, table)
            if expanded is None:
                continue
            body, end = expanded
            # `\foo x` must not glue into `\barx`: keep a space after a control word.
            if re.search(r"\\[A-Za-z@]+$", body) and end < len(tex) and tex[end].isalpha():
                body += " "
            out += [tex[pos : match.start()], body]
            pos, changed = end, True
        out.append(tex[pos:])
        tex = "".join(out)
        if not changed or len(tex) > MAX_EXPANDED:
            break
    return tex[:MAX_EXPANDED]


def _expand_one(
    tex: str, match: re.Match[str], table: Mapping[str, Macro]
) -> tuple[str, int] | None:
    """The replacement of the control sequence at `match` and where it ends, or None."""
    name = match.group(0)
    if name == "\\@ifstar":
        args, end = _read_args(tex, match.end(), 2)
        if args is None:
            return None
        star = texscan.skip_spaces(tex, end, newline=False)
        return (args[0], star + 1) if tex.startswith("*", star) else (args[1], end)
    if name == "\\mathpalette":  # `\\mathpalette\\cmd{x}` typesets x in the current style
        head = texscan.read_group(tex, match.end())
        return ("", head[1]) if head is not None else None
    if name in _XPARSE_TESTS:
        return _xparse_test(tex, match.end(), name)
    macro = table.get(name)
    if macro is None:
        return None
    if macro.params:  # an optional argument, a star (`\\newcommand\\x[1][k]`, xparse)
        call = read_call(tex, match.end(), tuple(ArgSpec(p.kind, p.default) for p in macro.params))
        if call is None:
            return None
        args, end = [arg.text for arg in call[0]], call[1]
    else:
        found, end = _read_args(tex, match.end(), macro.arity)
        if found is None:
            return None
        args = found
    return substitute(macro.definition, args), end


# xparse's tests on what the expansion put in for a star (`\\BooleanTrue`) or an absent
# optional argument (`-NoValue-`): (what the test is true of, whether it has a true branch,
# whether it has a false branch)
_XPARSE_TESTS: Final[Mapping[str, tuple[str, bool, bool]]] = {
    "\\IfBooleanTF": ("\\BooleanTrue", True, True),
    "\\IfBooleanT": ("\\BooleanTrue", True, False),
    "\\IfBooleanF": ("\\BooleanTrue", False, True),
    "\\IfNoValueTF": (NO_VALUE, True, True),
    "\\IfNoValueT": (NO_VALUE, True, False),
    "\\IfNoValueF": (NO_VALUE, False, True),
}


def _xparse_test(tex: str, pos: int, name: str) -> tuple[str, int] | None:
    """`\\IfBooleanTF{\\BooleanTrue}{A}{B}` is A, `\\IfNoValueTF{-NoValue-}{A}{B}` is A and
    `\\IfNoValueTF{x}{A}{B}` is B; a boolean test on anything but the two values the expansion
    puts in is left as it is."""
    value, has_true, has_false = _XPARSE_TESTS[name]
    read, end = texscan.read_args(tex, pos, "{" * (1 + has_true + has_false))
    if any(arg is None for arg in read):
        return None
    args = [arg or "" for arg in read]
    tested = args[0].strip()
    if value != NO_VALUE and tested not in (value, "\\BooleanFalse"):
        return None
    if tested == value:
        return (args[1] if has_true else ""), end
    return (args[-1] if has_false else ""), end


_NOT_AN_ARGUMENT: Final = frozenset(
    ("$", "\\begin", "\\end", "\\\\", "&", "\\item", "\\label", *"()[],.;:=<>+-|")
)


@lru_cache(maxsize=16)
def _expandable(definitions: tuple[tuple[str, str], ...]) -> frozenset[str]:
    """The names, of (name, definition) pairs, whose expansion never reaches them again."""
    table = dict(definitions)
    uses = {
        name: set(re.findall(r"\\[A-Za-z@]+", body)) & table.keys() for name, body in table.items()
    }
    return frozenset(name for name in table if not _reaches(uses, name))


def _reaches(uses: Mapping[str, set[str]], start: str) -> bool:
    seen: set[str] = set()
    todo = list(uses[start])
    while todo:
        name = todo.pop()
        if name == start:
            return True
        if name not in seen:
            seen.add(name)
            todo.extend(uses.get(name, ()))
    return False


def _read_args(tex: str, pos: int, arity: int) -> tuple[list[str] | None, int]:
    args: list[str] = []
    for _ in range(arity):
        group = texscan.read_group(tex, pos)
        if group is None or (group[1] - pos < 40 and group[0] in _NOT_AN_ARGUMENT):
            # `$`, `\\begin`, `(`: a macro that seems to take them has an optional argument
            # whose default the inventory does not record; expanding it would garble the text
            return None, pos
        args.append(group[0])
        pos = group[1]
    return args, pos


_MATH_OPEN = re.compile(
    r"(?<!\\)(\$\$|\$|\\\(|\\\[|\\begin\{(" + "|".join(re.escape(e) for e in DISPLAY_ENVS) + r")\})"
)


def split_math(tex: str) -> list[TexRun]:
    """Prose and math runs in order; an unclosed delimiter leaves the rest as prose."""
    runs: list[TexRun] = []
    pos = 0
    while (found := next_math(tex, pos)) is not None:
        start, end, run = found
        if start > pos:
            runs.append(TexRun(tex[pos:start]))
        runs.append(run)
        pos = end
    if pos < len(tex):
        runs.append(TexRun(tex[pos:]))
    return runs


def next_math(tex: str, pos: int) -> tuple[int, int, TexRun] | None:
    """The first formula at or after `pos`: where it starts and ends, and its run; None when
    there is none or the next opening delimiter is never closed."""
    match = _MATH_OPEN.search(tex, pos)
    if match is None:
        return None
    opener, env = match.group(1), match.group(2)
    if env:
        closer = f"\\end{{{env}}}"
    else:
        closer = {"$$": "$$", "$": "$", "\\(": "\\)", "\\[": "\\]"}[opener]
    end = _find_closer(tex, match.end(), closer)
    if end < 0:
        return None
    body = tex[match.end() : end]
    if env:
        body = display_env_body(env, body)
    run = TexRun(body, math=True, display=opener != "$" and opener != "\\(")
    return match.start(), end + len(closer), run


def _find_closer(tex: str, pos: int, closer: str) -> int:
    i = pos
    while True:
        i = tex.find(closer, i)
        if i < 0 or (i == 0 or tex[i - 1] != "\\"):
            return i
        i += 1


def display_env_body(env: str, body: str) -> str:
    base = env.rstrip("*")
    if base in ("align", "flalign", "eqnarray"):
        return f"\\begin{{align*}}{body}\\end{{align*}}"
    if base in ("gather", "multline", "dseries"):
        return body.replace("\\\\", " \\quad ")
    return body


# ----------------------------------------------------------------------------- math


_LABEL = re.compile(r"\\(?:label|tag\*?)\s*\{[^{}]*\}|\\(?:nonumber|notag)\b")
_INNER_ALIGNED = re.compile(r"\\(begin|end)\{(aligned|alignedat|split|multlined|dcases\*?)\}")
_INNER_ENV = {"dcases": "cases", "dcases*": "cases"}  # the rest become align*
SIZES: Final = (
    "tiny",
    "scriptsize",
    "footnotesize",
    "small",
    "normalsize",
    "large",
    "Large",
    "LARGE",
    "huge",
    "Huge",
    "normalfont",
)
# Commands of LaTeX, amsmath, mathtools and common packages that latex2mathml lacks, rewritten
# to one it knows ("" drops the command and keeps what follows, e.g. its argument's group).
MATH_REWRITES: Final[Mapping[str, str]] = {
    "ensuremath": "",
    "hdots": "\\ldots",
    "enskip": "\\enspace",
    "colonequals": "\\coloneqq",
    "nicefrac": "\\frac",
    "sfrac": "\\frac",
    "widebar": "\\overline",
    "xspace": "",
    "MoveEqLeft": "",
    "qedhere": "",
    "nobreak": "",
    "allowbreak": "",
    "displaybreak": "",
    "protect": "",
    "relax": "",
    "lefteqn": "",
    "hiderel": "",  # breqn's: the relation it wraps, set as usual
    "mathlarger": "",
    "mathsmaller": "",
    **dict.fromkeys(SIZES, ""),
    # acronym's commands print the entry, whose key is its short form
    **dict.fromkeys(("ac", "acs", "acl", "acf", "acp", "acsp", "Ac", "Acs", "Acl"), "\\text"),
}
# Commands whose arguments print nothing in a formula: dropped with them (`\vspace{2pt}`).
MATH_DROPPED: Final[Mapping[str, str]] = {
    "vspace": "*{",
    "scalebox": "{",
    "footnote": "[{",
    "makebox": "[[",  # its content group stays, as a group
    "raisebox": "{[[",
    "sffamily": "",
    "rmfamily": "",
    "ttfamily": "",
}
_UNKNOWN_MI = re.compile(r"<mi>\\([A-Za-z@]+)</mi>")


@dataclass(frozen=True)
class Converted:
    """One formula as MathML, with the macros it had to show as TeX (none: fully rendered)."""

    mathml: str
    shown_as_tex: tuple[str, ...] = ()


def math_to_mathml(tex: str, *, display: bool) -> str | None:
    """MathML for one formula, or None when it cannot be converted safely."""
    converted = convert_math(tex, display=display)
    return converted.mathml if converted is not None else None


def convert_math(tex: str, *, display: bool) -> Converted | None:
    """The formula as MathML, its unknown macros degraded locally; None if it cannot convert.

    A command latex2mathml does not know (a package's `\\Cr{co}`) is not guessed: it and the
    argument groups right after it are shown as their TeX source, in a monospace `mtext`, and
    the rest of the formula is rendered around it."""
    shown: list[str] = []
    body = _rewrite(_mark_raw(_LABEL.sub("", tex), shown))
    body = _INNER_ALIGNED.sub(_inner_env, body).strip()
    if not body:
        return None
    for _ in range(4):  # a macro's arguments may hide another unknown one: a few rounds
        raw = _convert(body, display)
        if raw is None:
            return None
        unknown = set(_UNKNOWN_MI.findall(raw))
        if not unknown:
            mathml = sanitise_mathml(raw, shown)
            return Converted(mathml, tuple(shown)) if mathml is not None else None
        body = _mark_unknown(body, unknown, shown)
    return None


def _convert(body: str, display: bool) -> str | None:
    from latex2mathml.converter import convert

    try:
        return convert(body, display="block" if display else "inline")
    except Exception:  # the converter raises many kinds on bad TeX; all mean "show the source"
        return None


def _inner_env(match: re.Match[str]) -> str:
    return f"\\{match.group(1)}{{{_INNER_ENV.get(match.group(2), 'align*')}}}"


def _rewrite(body: str) -> str:
    """MATH_REWRITES, MATH_DROPPED and the rebuilt commands applied, in one left-to-right pass."""
    out: list[str] = []
    pos = 0
    for match in texscan.CONTROL_WORD.finditer(body):
        name = match.group(1)
        if match.start() < pos or not name[0].isalpha():
            continue
        bare = name.rstrip("*")
        if bare in _REBUILT:
            replacement, end = _REBUILT[bare](body, match)
        elif bare in MATH_DROPPED:
            replacement, end = " ", texscan.read_args(body, match.end(), MATH_DROPPED[bare])[1]
        elif name in MATH_REWRITES:
            replacement, end = MATH_REWRITES[name] + " ", match.end()
        else:
            continue
        out += [body[pos : match.start()], replacement]
        pos = end
    out.append(body[pos:])
    return "".join(out)


def _extensible_arrow(body: str, match: re.Match[str]) -> tuple[str, int]:
    """`\\xrightarrow[below]{above}`: latex2mathml takes no text below, so it is rebuilt."""
    (below, above), end = texscan.read_args(body, match.end(), "[{")
    arrow = "\\longleftarrow" if match.group(1).startswith("xleft") else "\\longrightarrow"
    built = f"\\overset{{{above or ''}}}{{{arrow}}}"
    return (f"\\underset{{{below}}}{{{built}}}" if below else built), end


def _operator_name(body: str, match: re.Match[str]) -> tuple[str, int]:
    """`\\operatorname*{X}` and `\\operatorname{X}\\limits` take limits below: `\\mathop`."""
    group = texscan.read_group(body, match.end())
    if group is None:
        return match.group(0), match.end()
    after = body[texscan.skip_spaces(body, group[1]) :]
    if match.group(1).endswith("*") or re.match(r"\\limits(?![A-Za-z@])", after):
        return f"\\mathop{{\\mathrm{{{group[0]}}}}}", group[1]
    return f"\\operatorname{{{group[0]}}}", group[1]


TEXT_IN_MATH: Final = ("text", "textrm", "textit", "textbf", "textsf", "texttt", "mbox")


def _text_in_math(body: str, match: re.Match[str]) -> tuple[str, int]:
    """`\\text{…}` with only plain text inside: latex2mathml ends the text at its first `}`."""
    group = texscan.read_group(body, match.end())
    if group is None:
        return match.group(0), match.end()
    return f"\\{match.group(1).rstrip('*')}{{{_plain(group[0])}}}", group[1]


def _plain(text: str) -> str:
    """`text` with its commands, braces and dollars taken out (escaped characters kept)."""
    plain = re.sub(r"\\([$%&_{}#])", r"\1", re.sub(r"\\[A-Za-z@]+\*?\s*", "", text))
    return re.sub(r"[{}$]", "", plain)


def _braket_set(body: str, match: re.Match[str]) -> tuple[str, int]:
    """braket's `\\Set{x | P(x)}` (and `\\set`): braces around it, the first `|` of its own
    level the set-builder bar."""
    group = texscan.read_group(body, match.end())
    if group is None:
        return match.group(0), match.end()
    inner, depth = _rewrite(group[0]), 0
    for at, char in enumerate(inner):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if char == "|" and depth == 0 and (at == 0 or inner[at - 1] != "\\"):
            inner = f"{inner[:at]}\\;\\middle|\\;{inner[at + 1 :]}"
            break
    return f"\\left\\{{ {inner} \\right\\}}", group[1]


def _condition(body: str, match: re.Match[str]) -> tuple[str, int]:
    """breqn's `\\condition[sep]{text}`: the separator (a comma unless given), a space, the
    condition as text."""
    (sep, text), end = texscan.read_args(body, match.end(), "[{")
    if text is None:
        return match.group(0), match.end()
    return f"{sep if sep is not None else ','}\\quad \\text{{{_plain(text)}}}", end


_REBUILT: Final[Mapping[str, Callable[[str, re.Match[str]], tuple[str, int]]]] = {
    "condition": _condition,
    **dict.fromkeys(TEXT_IN_MATH, _text_in_math),
    "Set": _braket_set,
    "set": _braket_set,
    "xrightarrow": _extensible_arrow,
    "xleftarrow": _extensible_arrow,
    "operatorname": _operator_name,
}


def _mark_raw(body: str, shown: list[str]) -> str:
    """Each `\\paperlintraw{…}` (texsafe's command shown as source), or what plasTeX made of
    it in a formula, `\\texttt{\\textbackslash{}…}`, replaced by a marker."""
    out: list[str] = []
    pos = 0
    for match in _RAW.finditer(body):
        group = texscan.read_group(body, match.end())
        if match.start() < pos or group is None:
            continue
        out += [body[pos : match.start()], f"\\text{{{MARK}{len(shown)}q}}"]
        shown.append(unescape_source(group[0]))
        pos = group[1]
    out.append(body[pos:])
    return "".join(out)


def _mark_unknown(body: str, names: set[str], shown: list[str]) -> str:
    """Each `\\name` in `names`, with the `[..]`/`{..}` groups right after it, replaced by a
    marker `\\text{…}` whose source is kept in `shown`."""
    out: list[str] = []
    pos = 0
    for match in texscan.CONTROL_WORD.finditer(body):
        if match.start() < pos or match.group(1).rstrip("*") not in names:
            continue
        end = argument_end(body, match.end())
        out += [body[pos : match.start()], f"\\text{{{MARK}{len(shown)}q}}"]
        shown.append(" ".join(body[match.start() : end].split()))
        pos = end
    out.append(body[pos:])
    return "".join(out)


def argument_end(body: str, pos: int) -> int:
    """The end of the `[..]` and `{..}` groups that follow `pos` directly (at most four)."""
    for _ in range(4):
        if body.startswith("[", pos):
            opt = texscan.read_optional(body, pos, newline=False)
            if opt is None:
                break
            pos = opt[1]
        elif body.startswith("{", pos):
            pos = texscan.find_closing_brace(body, pos) + 1
        else:
            break
    return min(pos, len(body))


RAW: Final = "paperlintraw"
_RAW = re.compile(r"\\" + RAW + r"(?![A-Za-z@])|\\texttt(?=\s*\{\\textbackslash\s*\{\})")
_SPECIAL = {
    "\\": "\\textbackslash{}",
    "{": "\\{",
    "}": "\\}",
    "$": "\\$",
    "&": "\\&",
    "#": "\\#",
    "%": "\\%",
    "_": "\\_",
    "^": "\\^{}",
    "~": "\\~{}",
}


def escape_source(source: str) -> str:
    """TeX that prints `source` as it is written: no character of it keeps a meaning."""
    return "".join(_SPECIAL.get(char, char) for char in " ".join(source.split()))


_UNESCAPE = {escaped: char for char, escaped in _SPECIAL.items()}
_ESCAPED = re.compile("|".join(re.escape(e) for e in sorted(_UNESCAPE, key=len, reverse=True)))


def unescape_source(text: str) -> str:
    """The inverse of `escape_source` (to show a RAW argument outside TeX), in one pass; also
    of plasTeX's rendering of it in a formula (`\\textbackslash {}Cr\\{ co\\} `)."""
    text = re.sub(r"(\\[A-Za-z]+) \{\}", r"\1{}", text)
    text = re.sub(r"(\\[{}]) ", r"\1", text).strip()
    return _ESCAPED.sub(lambda m: _UNESCAPE[m.group(0)], text)


PUNCTUATION: Final = (("---", "—"), ("--", "–"), ("``", "“"), ("''", "”"))


_TITLE = re.compile(r"\\title\s*(?:\[[^\]]*\])?\s*(?=\{)")
_TITLE_NOTE = re.compile(r"\\(?:thanks|footnote|tnoteref)\s*(?:\[[^\]]*\])?\s*(?=\{)")
_TITLE_NOISE = re.compile(r"\\\\|\\newline")


def _without_notes(text: str) -> str:
    """`text` without its `\\thanks{…}`, `\\footnote{…}` and elsarticle's `\\tnoteref{…}`,
    braces inside them included (`\\thanks{We thank P\\"{o}tscher}`): not part of the title."""
    while (note := _TITLE_NOTE.search(text)) is not None:
        span = texscan.read_group_span(text, note.end())
        end = span[2] if span is not None else note.end()
        text = text[: note.start()] + text[end:]
    return text


def paper_title(source: str, macros: Sequence[Macro] = ()) -> str | None:
    """The paper's title as plain text (`\\title[short]{Long}` -> `Long`), or None."""
    source = re.sub(r"(?<!\\)%[^\n]*", "", source)
    match = _TITLE.search(source)
    if match is None:
        return None
    group = texscan.read_group(source, match.end())
    if group is None:
        return None
    text = _TITLE_NOISE.sub(" ", expand_macros(_without_notes(group[0]), macros))
    text = re.sub(r"\\[A-Za-z@]+\*?", " ", text)
    text = re.sub(r"[{}$]", "", text)
    text = re.sub(r"\^(?=\s|$)", "", text)  # a note's mark, `$^\\star$`, its symbol dropped
    for tex, char in PUNCTUATION:
        text = text.replace(tex, char)
    text = " ".join(text.replace("~", " ").split())
    return text[:300] or None

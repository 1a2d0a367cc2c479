"""Read LaTeX's `.aux` file: the labels and bibliography numbers LaTeX itself wrote.

The reader is brace-balanced (docs/latex-notes.md §14.3): fields nest braces and titles hold
`{}`, `$…$` and newlines, so a regex on `}{` splits them wrongly. Only three commands at top
level carry data — `\\newlabel`, `\\bibcite` and `\\@input` — everything else (definitions,
hyperref's preamble block, `\\@writefile`, `\\@setckpt`) is skipped as a whole.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field

# Commands that define something; the name that follows them is not a use (so the
# `\gdef\newlabel#1#2{…}` of hyperref's fallback block is not read as a label).
_DEFINERS = frozenset(
    {"def", "gdef", "edef", "xdef", "providecommand", "newcommand", "renewcommand"}
)
_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ@")
# Macros that only format a number; `\textup{x}` prints x (docs/latex-notes.md §14.3 rule 4).
_UNWRAP = frozenset({"textup", "textbf", "textrm", "textnormal", "mbox", "hbox", "text"})
_DROP = frozenset({"relax", "ignorespaces", "protect", "nobreak", "unskip"})
_TEXT_SYMBOLS = {
    "textasteriskcentered": "*",
    "textdagger": "†",
    "textdaggerdbl": "‡",
    "textsection": "§",
    "textparagraph": "¶",
    "textbardbl": "‖",
}
"""The text-mode symbols of `\\fnsymbol` as preflight prints them (`counters._FNSYMBOLS`)."""
_FIRST_OF_TWO = frozenset({"M@TitleReference", "TextOrMath"})
"""Written with two groups, printing the first: memoir's `\\M@TitleReference{number}{title}`
(`\\let` to `\\@firstoftwo`, memoir.cls 3.7.19), the kernel's `\\TextOrMath{text}{math}` of
a `\\fnsymbol` number (docs/latex-notes.md §14)."""
_MAX_DEPTH = 32

ReadText = Callable[[str], str | None]
"""Reads an aux file by its path relative to the compile folder; None when it is missing."""


@dataclass(frozen=True)
class AuxLabel:
    """One `\\newlabel`, paired with its cleveref companion when there is one."""

    key: str
    number: str  # normalised, as compared with preflight's numbers
    raw: str  # field 1 exactly as written
    page: str | None = None
    # nameref's field 3: a note, or often the section title (docs/latex-notes.md §10)
    title: str | None = None
    anchor: str | None = None  # hyperref's field 4, e.g. "theorem.2.1"
    cref_type: str | None = None
    cref_value: str | None = None
    cref_prefix: str | None = None
    aux_file: str = ""


@dataclass(frozen=True)
class Duplicate:
    key: str
    numbers: tuple[str, ...]  # in reading order; the last one is the one LaTeX uses


@dataclass(frozen=True)
class AuxData:
    labels: dict[str, AuxLabel] = field(default_factory=dict)
    bibcites: dict[str, str] = field(default_factory=dict)
    duplicates: tuple[Duplicate, ...] = ()
    files: tuple[str, ...] = ()  # aux files read, in order
    missing: tuple[str, ...] = ()  # `\@input` targets that were not there

    def numbers(self) -> dict[str, str]:
        return {key: label.number for key, label in self.labels.items()}


@dataclass
class _Entry:
    key: str
    fields: list[str]
    aux_file: str


@dataclass
class _Collected:
    labels: list[_Entry] = field(default_factory=list)
    crefs: dict[str, str] = field(default_factory=dict)
    bibcites: dict[str, str] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


def parse_aux(main_aux: str | os.PathLike[str], *, read: ReadText) -> AuxData:
    """Parse `main_aux` and every `\\@input` it names, recursively and in order.

    `read` is the only I/O: it maps an aux path (relative to the compile folder, as LaTeX
    writes it, so `\\@input{chap/x.aux}` is read as "chap/x.aux") to its text, or None.
    """
    collected = _Collected()
    _collect(os.fspath(main_aux), read, collected, chain=())
    labels: dict[str, AuxLabel] = {}
    seen: dict[str, list[str]] = {}
    for entry in collected.labels:
        label = _make_label(entry, collected.crefs.get(entry.key))
        seen.setdefault(entry.key, []).append(label.number)
        # the last definition read wins, as in LaTeX (docs/latex-notes.md §8)
        labels[entry.key] = label
    duplicates = tuple(Duplicate(k, tuple(v)) for k, v in seen.items() if len(v) > 1)
    return AuxData(
        labels=labels,
        bibcites=dict(collected.bibcites),
        duplicates=duplicates,
        files=tuple(collected.files),
        missing=tuple(collected.missing),
    )


def parse_aux_text(text: str) -> AuxData:
    """Parse one aux file's text; `\\@input`s are reported as missing."""
    return parse_aux("main.aux", read=lambda name: text if name == "main.aux" else None)


_SPACES = frozenset({"nobreakspace", "space", " "})


def normalise_number(raw: str) -> str:
    """The printed form of a label's field 1: `1.{1}` → `1.1`, `\\textup{(a)}` → `(a)`.

    Text inside `$…$` is kept as written, braces included.
    """
    out: list[str] = []
    i, n = 0, len(raw)
    while i < n:
        ch = raw[i]
        if ch == "$":
            end = raw.find("$", i + 1)
            end = n - 1 if end < 0 else end
            out.append(raw[i : end + 1])
            i = end + 1
        elif ch == "\\":
            name, after = _read_control(raw, i)
            if name in _SPACES:  # `~` is written to the .aux as `\\nobreakspace {}`
                out.append(" ")
                i = _skip_spaces(raw, after)
            elif name in _DROP or name in _UNWRAP:
                i = _skip_spaces(raw, after)
            elif name in _TEXT_SYMBOLS:
                out.append(_TEXT_SYMBOLS[name])
                i = _skip_spaces(raw, after)
            elif name in _FIRST_OF_TWO:
                groups, i = _read_groups(raw, after, 2)
                out.append(normalise_number(groups[0]) if groups else "")
            else:
                out.append(raw[i:after])
                i = after
        elif ch in "{}":
            i += 1
        else:
            out.append(ch)
            i += 1
    return " ".join("".join(out).split())


# --- reading -----------------------------------------------------------------------------


def _collect(name: str, read: ReadText, into: _Collected, *, chain: tuple[str, ...]) -> None:
    if name in chain or len(chain) >= _MAX_DEPTH:
        return  # an aux that inputs itself would make TeX loop; read each level once
    text = read(name)
    if text is None:
        into.missing.append(name)
        return
    into.files.append(name)
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "%":
            i = _skip_comment(text, i)
        elif ch == "{":
            i = _group_end(text, i)
        elif ch == "\\":
            i = _command(text, i, read, into, chain=(*chain, name))
        else:
            i += 1


def _command(
    text: str, start: int, read: ReadText, into: _Collected, *, chain: tuple[str, ...]
) -> int:
    name, i = _read_control(text, start)
    if name in _DEFINERS:
        return _skip_definition(text, i)
    if name == "let":
        return _skip_control(text, _skip_control(text, i, allow_equals=True))
    if name == "newlabel":
        args, i = _read_groups(text, i, 2)
        if len(args) == 2:
            _add_label(args[0], args[1], into, aux_file=chain[-1])
        return i
    if name == "bibcite":
        args, i = _read_groups(text, i, 2)
        if len(args) == 2:
            into.bibcites[args[0].strip()] = _bibcite_label(args[1])
        return i
    if name == "@input":
        args, i = _read_groups(text, i, 1)
        # LaTeX writes `\@input{chap/x.aux}` relative to the folder it runs in, not to the
        # aux that names it, so the target is used as written.
        if args:
            _collect(args[0].strip(), read, into, chain=chain)
        return i
    return i


def _add_label(key_raw: str, body: str, into: _Collected, *, aux_file: str) -> None:
    key = key_raw.strip()
    if key.startswith(("tocindent", "thmt@@")):
        return
    fields = _split_groups(body)
    if fields is None:  # e.g. `\newlabel{tocindent1}{66.1pt}`: not a label triple
        return
    if key.endswith("@cref"):
        if fields:
            into.crefs[key[: -len("@cref")]] = fields[0]
        return
    if len(fields) >= 2:
        into.labels.append(_Entry(key, fields, aux_file))


def _make_label(entry: _Entry, cref: str | None) -> AuxLabel:
    f = entry.fields
    cref_type, cref_value, cref_prefix = _parse_cref(cref) if cref is not None else (None,) * 3
    return AuxLabel(
        key=entry.key,
        number=normalise_number(f[0]),
        raw=f[0],
        page=f[1],
        title=f[2] if len(f) >= 4 else None,
        anchor=f[3] if len(f) >= 4 else None,
        cref_type=cref_type,
        cref_value=cref_value,
        cref_prefix=cref_prefix,
        aux_file=entry.aux_file,
    )


def _parse_cref(text: str) -> tuple[str | None, str | None, str | None]:
    """`[type][arabic value][reset prefix]printed` → (type, value, prefix)."""
    parts: list[str] = []
    i = 0
    for _ in range(3):
        i = _skip_spaces(text, i)
        if i >= len(text) or text[i] != "[":
            return None, None, None
        end = _bracket_end(text, i)
        parts.append(text[i + 1 : end])
        i = end + 1
    return parts[0], parts[1], parts[2]


def _bibcite_label(body: str) -> str:
    groups = _split_groups(body)
    # natbib writes {{num}{year}{short}{long}}: the first group is the printed number
    if groups:
        return normalise_number(groups[0])
    return normalise_number(body)


# --- lexical helpers ---------------------------------------------------------------------


def _read_control(text: str, i: int) -> tuple[str, int]:
    """`text[i]` is a backslash: return the control sequence's name and the index after it."""
    j = i + 1
    if j >= len(text):
        return "", j
    if text[j] not in _LETTERS:
        return text[j], j + 1
    k = j
    while k < len(text) and text[k] in _LETTERS:
        k += 1
    return text[j:k], k


def _skip_spaces(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t\r\n":
        i += 1
    return i


def _skip_comment(text: str, i: int) -> int:
    end = text.find("\n", i)
    return len(text) if end < 0 else end + 1


def _group_end(text: str, i: int) -> int:
    """`text[i]` is `{`: the index after its matching `}` (or the end of the text)."""
    depth = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "%":
            i = _skip_comment(text, i)
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n


def _bracket_end(text: str, i: int) -> int:
    """`text[i]` is `[`: the index of the `]` closing it at brace depth 0."""
    j = i + 1
    while j < len(text):
        if text[j] == "{":
            j = _group_end(text, j)
            continue
        if text[j] == "\\":
            j += 2
            continue
        if text[j] == "]":
            return j
        j += 1
    return len(text)


def _read_groups(text: str, i: int, count: int) -> tuple[list[str], int]:
    """Read up to `count` brace groups (spaces between them allowed); return their insides."""
    out: list[str] = []
    for _ in range(count):
        j = _skip_spaces(text, i)
        if j >= len(text) or text[j] != "{":
            break
        end = _group_end(text, j)
        out.append(text[j + 1 : end - 1])
        i = end
    return out, i


def _split_groups(body: str) -> list[str] | None:
    """Split `{a}{b}…` into its top-level groups; None when anything else is at top level."""
    groups: list[str] = []
    i = _skip_spaces(body, 0)
    while i < len(body):
        if body[i] != "{":
            return None
        end = _group_end(body, i)
        groups.append(body[i + 1 : end - 1])
        i = _skip_spaces(body, end)
    return groups


def _skip_control(text: str, i: int, *, allow_equals: bool = False) -> int:
    """Skip one token (a control sequence or a character), with leading spaces and `=`."""
    i = _skip_spaces(text, i)
    if allow_equals and i < len(text) and text[i] == "=":
        i = _skip_spaces(text, i + 1)
    if i >= len(text):
        return i
    if text[i] == "\\":
        return _read_control(text, i)[1]
    return i + 1


def _skip_definition(text: str, i: int) -> int:
    """After `\\gdef`/`\\providecommand`: skip the name, the parameter text and the body."""
    i = _skip_spaces(text, i)
    # `\providecommand{\name}` puts the name in braces; `\gdef\name` does not
    i = _group_end(text, i) if i < len(text) and text[i] == "{" else _skip_control(text, i)
    while i < len(text) and text[i] != "{":
        if text[i] == "\\":  # a delimiter token in the parameter text
            i = _read_control(text, i)[1]
            continue
        if text[i] == "[":
            i = _bracket_end(text, i) + 1
            continue
        i += 1
    return _group_end(text, i) if i < len(text) else i

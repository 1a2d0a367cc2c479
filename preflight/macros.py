"""Macro definitions: `\\newcommand` and friends, `\\def`, xparse's `\\NewDocumentCommand`,
`\\let`, `\\DeclareMathOperator`, `\\newenvironment`. Each parser returns the record and the
offset after the definition, so the walker skips the body (pylatexenc would parse a `\\begin`
inside it as content).

A `Definition` keeps what expanding a use needs: its parameters in order (`m` a mandatory
argument, `o` an optional `[...]` with its default, `s` a star) and its body.
"""

from __future__ import annotations

import functools
import re
from typing import Literal, NamedTuple

from paperlint.preflight import lazyre, texscan
from paperlint.preflight.draft import DraftMacro, DraftMacroParam
from paperlint.preflight.record import Record

_NAME = lazyre.pattern(r"\s*\\([A-Za-z@]+|.)")
_PARAMS = lazyre.pattern(r"[^{]*")
_UNDELIMITED = lazyre.pattern(r"(?:\s*#[1-9])*\s*")
_CSNAME = lazyre.pattern(r"\s*([^\\{}]*?)\s*\\endcsname")
# xparse marks an optional argument that was not given with this text (`\\IfNoValueTF`)
NO_VALUE = "-NoValue-"


class ArgSpec(NamedTuple):
    """One parameter of a macro: its kind and, for an optional one, its default."""

    kind: Literal["m", "o", "s"]  # "m" mandatory, "o" optional [...], "s" star
    default: str | None = None  # what an absent "o" stands for (None: xparse's -NoValue-)


class Definition(NamedTuple):
    """A user macro: name (with its backslash), parameters and body. `params` is None when
    a use cannot be read (a `\\def` with delimited parameters, an xparse type we do not
    read): such a macro is kept for the inventory but never expanded."""

    name: str
    body: str
    params: tuple[ArgSpec, ...] | None = ()

    @property
    def arity(self) -> int:
        """Arguments other than a star, as `\\newcommand`'s `[n]` counts them."""
        return sum(p.kind != "s" for p in self.params or ())

    @property
    def definition(self) -> str:
        return self.body

    def record(self, name: str | None = None) -> DraftMacro:
        """The inventory's record of this definition (under `name` for a `\\let` copy); its
        parameters are kept when they are not `arity` mandatory ones."""
        params = self.params or ()
        if not params:  # most definitions
            return DraftMacro(name=name or self.name, definition=self.body, arity=0, params=[])
        plain = all(p.kind == "m" for p in params)
        return DraftMacro(
            name=name or self.name,
            definition=self.body,
            arity=self.arity,
            params=[]
            if plain
            else [DraftMacroParam(kind=p.kind, default=p.default) for p in params],
        )


class EnvDefinition(Record):
    """A user environment: its arity, default, begin and end code."""

    __slots__ = ("name", "arity", "default", "begin", "end")
    name: str
    arity: int
    default: str | None
    begin: str
    end: str

    def __init__(self, name: str, arity: int, default: str | None, begin: str, end: str) -> None:
        self.name = name
        self.arity = arity
        self.default = default
        self.begin = begin
        self.end = end

    @property
    def params(self) -> tuple[ArgSpec, ...]:
        """`[n][default]`: the first argument optional when there is a default."""
        params = [ArgSpec("m")] * min(self.arity, 9)
        if self.default is not None and params:
            params[0] = ArgSpec("o", self.default)
        return tuple(params)


def parse_newcommand(text: str, pos: int) -> tuple[Definition | None, int]:
    """`\\newcommand*{\\name}[n][default]{body}` (also renew/provide/DeclareRobustCommand)."""
    _, pos = texscan.read_star(text, pos)
    group = texscan.read_group(text, pos)
    if group is None:
        return None, pos
    name, pos = group
    arity_arg = texscan.read_optional(text, pos)
    arity = 0
    default: str | None = None
    if arity_arg is not None:
        pos = arity_arg[1]
        arity = int(arity_arg[0]) if arity_arg[0].strip().isdigit() else 0
        default_arg = texscan.read_optional(text, pos)
        if default_arg is not None:
            default, pos = default_arg
    body = texscan.read_group(text, pos)
    if body is None:
        return None, pos
    params = [ArgSpec("m")] * min(arity, 9)
    if default is not None and params:
        params[0] = ArgSpec("o", default)
    return Definition(name.strip(), body[0], tuple(params)), body[1]


def parse_def(text: str, pos: int) -> tuple[Definition | None, int]:
    """`\\def\\name#1#2{body}` (also `\\gdef`, `\\edef`, `\\xdef`)."""
    match = _NAME.match(text, pos)
    if match is None:
        return None, pos
    name: str | None = "\\" + match.group(1)
    after = match.end()
    if match.group(1) == "csname":  # `\\expandafter\\def\\csname foo\\endcsname{…}`
        built = _CSNAME.match(text, match.end())
        if built is None:
            return None, match.end()
        name = "\\" + built.group(1) if re.fullmatch(r"[A-Za-z@]+", built.group(1)) else None
        after = built.end()
    params = _PARAMS.match(text, after)
    assert params is not None
    body = texscan.read_group(text, params.end())
    if body is None or len(params.group(0)) > 40:
        return None, after
    if name is None:
        return None, body[1]  # a name built from what is not known here
    spec = params.group(0)
    undelimited = _UNDELIMITED.fullmatch(spec) is not None
    read: tuple[ArgSpec, ...] | None = (
        tuple(ArgSpec("m") for _ in range(spec.count("#"))) if undelimited else None
    )
    return Definition(name, body[0], read), body[1]


# xparse argument types read here; the rest (r, d, v, e, ...) leave the macro unexpanded
_XPARSE = lazyre.pattern(r"\s*[+!]*\s*(?:(?P<m>m)|(?P<o>o)|O\s*\{(?P<O>[^{}]*)\}|(?P<s>s))")


def parse_document_command(text: str, pos: int) -> tuple[Definition | None, int]:
    """xparse `\\NewDocumentCommand{\\name}{spec}{body}` (and Renew/Provide/Declare)."""
    args, end = texscan.read_args(text, pos, "{{{")
    name, spec, body = args
    if name is None or spec is None or body is None:
        return None, end
    params: list[ArgSpec] | None = []
    at = 0
    while params is not None and spec[at:].strip():
        match = _XPARSE.match(spec, at)
        if match is None:
            params = None
            break
        at = match.end()
        if match.group("m"):
            params.append(ArgSpec("m"))
        elif match.group("s"):
            params.append(ArgSpec("s"))
        else:
            params.append(ArgSpec("o", match.group("O")))
    return Definition(name.strip(), body, tuple(params) if params is not None else None), end


def parse_let(text: str, pos: int) -> tuple[DraftMacro | None, int]:
    """`\\let\\a\\b` or `\\let\\a=\\b`."""
    match = re.compile(r"\s*(\\[A-Za-z@]+|\\.)\s*=?\s*(\\[A-Za-z@]+|\\.|.)").match(text, pos)
    if match is None:
        return None, pos
    return DraftMacro(name=match.group(1), definition=match.group(2), arity=0), match.end()


_PARAMETER_NUMBER = lazyre.pattern(r"(?<!#)#([1-9])")


def parse_paired_delimiter(text: str, pos: int, *, extended: bool) -> tuple[Definition | None, int]:
    """mathtools' `\\DeclarePairedDelimiter{\\abs}{\\lvert}{\\rvert}` and
    `\\DeclarePairedDelimiterX{\\set}[1]{\\{}{\\}}{#1}`: a use `\\abs*[\\big]{x}` takes a
    star, an optional size and the content. Recorded as `\\left L … \\right R` (the size
    and the star change only how large the delimiters are set)."""
    if extended:
        (name, count, left, right, body), end = texscan.read_args(text, pos, "{[{{{")
        arity = int(count) if count is not None and count.strip().isdigit() else 0
        if body is not None:
            body = _PARAMETER_NUMBER.sub(lambda m: f"#{int(m.group(1)) + 2}", body)
            body = body.replace("\\delimsize", "")
    else:
        (name, left, right), end = texscan.read_args(text, pos, "{{{")
        arity, body = 1, "#3"
    if name is None or left is None or right is None or body is None:
        return None, end
    params = (ArgSpec("s"), ArgSpec("o"), *[ArgSpec("m")] * min(arity, 7))
    return Definition(name.strip(), f"\\left{left} {body}\\right{right}", params), end


def parse_math_operator(text: str, pos: int) -> tuple[DraftMacro | None, int]:
    """`\\DeclareMathOperator*{\\name}{text}`."""
    args, end = texscan.read_args(text, pos, "*{{")
    if args[1] is None or args[2] is None:
        return None, end
    return DraftMacro(name=args[1].strip(), definition=f"\\operatorname{{{args[2]}}}"), end


def parse_document_environment(text: str, pos: int) -> tuple[EnvDefinition | None, int]:
    """xparse `\\NewDocumentEnvironment{name}{spec}{begin}{end}` whose arguments are
    mandatory ones after at most one optional one (the `\\newenvironment` shapes)."""
    args, end = texscan.read_args(text, pos, "{{{{")
    name, spec, begin, finish = args
    if name is None or spec is None or begin is None or finish is None:
        return None, end
    params: list[ArgSpec] = []
    at = 0
    while spec[at:].strip():
        match = _XPARSE.match(spec, at)
        if match is None or match.group("s"):
            return None, end
        at = match.end()
        params.append(ArgSpec("m") if match.group("m") else ArgSpec("o", match.group("O")))
    if any(p.kind == "o" for p in params[1:]):
        return None, end
    default = None
    if params and params[0].kind == "o":
        default = NO_VALUE if params[0].default is None else params[0].default
    return EnvDefinition(name.strip(), len(params), default, begin, finish), end


def parse_newenvironment(text: str, pos: int) -> tuple[EnvDefinition | None, int]:
    """`\\newenvironment{name}[n][default]{begin}{end}`."""
    _, pos = texscan.read_star(text, pos)
    group = texscan.read_group(text, pos)
    if group is None:
        return None, pos
    name, pos = group
    arity, default = 0, None
    arity_arg = texscan.read_optional(text, pos)
    if arity_arg is not None:
        arity = int(arity_arg[0]) if arity_arg[0].strip().isdigit() else 0
        pos = arity_arg[1]
        default_arg = texscan.read_optional(text, pos)
        if default_arg is not None:
            default, pos = default_arg
    begin = texscan.read_group(text, pos)
    if begin is None:
        return None, pos
    end = texscan.read_group(text, begin[1])
    if end is None:
        return None, begin[1]
    return EnvDefinition(name.strip(), arity, default, begin[0], end[0]), end[1]


_PARAMETER = lazyre.pattern(r"#(#|[1-9])")


@functools.lru_cache(maxsize=1024)
def parameter_parts(body: str) -> tuple[str | int, ...]:
    """A body split into its text and its parameters: `a#1b##c` is `("a", 0, "b#c")`
    (`##` stands for `#`; a parameter is its 0-based index). Kept for the bodies last asked
    about: a macro used again is split once."""
    parts: list[str | int] = []
    text: list[str] = []
    pos = 0
    for match in _PARAMETER.finditer(body):
        text.append(body[pos : match.start()])
        pos = match.end()
        if match.group(1) == "#":
            text.append("#")
            continue
        parts.append("".join(text))
        text = []
        parts.append(int(match.group(1)) - 1)
    text.append(body[pos:])
    parts.append("".join(text))
    return tuple(part for part in parts if part != "")


def substitute(body: str, args: list[str]) -> str:
    """Replace `#1`…`#9` by the arguments (a missing one by nothing) and `##` by `#`; a space
    where a control word would run into a letter (`glues`)."""
    out: list[str] = []
    for part in parameter_parts(body):
        text = part if isinstance(part, str) else (args[part] if part < len(args) else "")
        if out and glues(out[-1], text):
            out.append(" ")
        out.append(text)
    return "".join(out)


_ENDS_IN_WORD = lazyre.pattern(r"(?<!\\)(?:\\\\)*\\[A-Za-z@]+$")


def glues(before: str, after: str) -> bool:
    """Whether `before` ends in a control word and `after` starts with a letter. TeX read a
    body and its argument as separate tokens (`\\langle#1` with `He` is `\\langle` then `He`);
    side by side as text they would read as one longer control word (`\\langleHe`)."""
    if not after or not (after[0] == "@" or (after[0].isascii() and after[0].isalpha())):
        return False
    return _ENDS_IN_WORD.search(before[-64:]) is not None

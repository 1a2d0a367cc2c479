"""Macro definitions: `\\newcommand` and friends, `\\def`, `\\let`, `\\DeclareMathOperator`,
`\\newenvironment`. Each parser returns the record and the offset after the definition, so
the walker skips the body (pylatexenc would parse a `\\begin` inside it as content).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from paperlint.preflight import texscan
from paperlint.preflight.model import Macro

_NAME = re.compile(r"\s*\\([A-Za-z@]+|.)")
_PARAMS = re.compile(r"[^{]*")


@dataclass
class EnvDefinition:
    name: str
    arity: int
    default: str | None
    begin: str
    end: str


def parse_newcommand(text: str, pos: int) -> tuple[Macro | None, int]:
    """`\\newcommand*{\\name}[n][default]{body}` (also renew/provide/DeclareRobustCommand)."""
    _, pos = texscan.read_star(text, pos)
    group = texscan.read_group(text, pos)
    if group is None:
        return None, pos
    name, pos = group
    arity_arg = texscan.read_optional(text, pos)
    arity = 0
    if arity_arg is not None:
        pos = arity_arg[1]
        arity = int(arity_arg[0]) if arity_arg[0].strip().isdigit() else 0
        default = texscan.read_optional(text, pos)
        pos = default[1] if default is not None else pos
    body = texscan.read_group(text, pos)
    if body is None:
        return None, pos
    return Macro(name=name.strip(), definition=body[0], arity=arity), body[1]


def parse_def(text: str, pos: int) -> tuple[Macro | None, int]:
    """`\\def\\name#1#2{body}` (also `\\gdef`, `\\edef`, `\\xdef`)."""
    match = _NAME.match(text, pos)
    if match is None:
        return None, pos
    params = _PARAMS.match(text, match.end())
    assert params is not None
    body = texscan.read_group(text, params.end())
    if body is None or len(params.group(0)) > 40:
        return None, match.end()
    arity = params.group(0).count("#")
    return Macro(name="\\" + match.group(1), definition=body[0], arity=arity), body[1]


def parse_let(text: str, pos: int) -> tuple[Macro | None, int]:
    """`\\let\\a\\b` or `\\let\\a=\\b`."""
    match = re.compile(r"\s*(\\[A-Za-z@]+|\\.)\s*=?\s*(\\[A-Za-z@]+|\\.|.)").match(text, pos)
    if match is None:
        return None, pos
    return Macro(name=match.group(1), definition=match.group(2), arity=0), match.end()


def parse_math_operator(text: str, pos: int) -> tuple[Macro | None, int]:
    """`\\DeclareMathOperator*{\\name}{text}`."""
    args, end = texscan.read_args(text, pos, "*{{")
    if args[1] is None or args[2] is None:
        return None, end
    return Macro(name=args[1].strip(), definition=f"\\operatorname{{{args[2]}}}"), end


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


def substitute(body: str, args: list[str]) -> str:
    """Replace `#1`…`#9` by the arguments."""
    return re.sub(
        r"#(\d)", lambda m: args[int(m.group(1)) - 1] if int(m.group(1)) <= len(args) else "", body
    )

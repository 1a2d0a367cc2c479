"""What class and package code decides before the document starts, emulated as far as
numbering needs: declared options run only when given, `\\ifx\\flag\\relax` tests on flags
the options set, and etoolbox toggles (`\\newtoggle`, `\\toggletrue`, `\\iftoggle`).

A class writes `\\DeclareOption{supplement}{\\@supplementtrue}` and later `\\ProcessOptions`:
the option's code runs at `\\ProcessOptions`, and only when the option was passed. Reading
the code where it is declared would switch every option on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from paperlint.preflight import texscan

if TYPE_CHECKING:
    from paperlint.preflight.numbering import Walker

_CS = re.compile(r"\s*(\\[A-Za-z@]+|\\.)")
_RELAX = "\\relax"


@dataclass
class OptionState:
    """Options of the class or package being read, the code its options declared, the
    macros `\\let` so far (for `\\ifx`), and the etoolbox toggles."""

    given: set[str] = field(default_factory=set)
    passed: dict[str, set[str]] = field(default_factory=dict)
    declared: dict[str, str] = field(default_factory=dict)
    lets: dict[str, str] = field(default_factory=dict)
    defined: set[str] = field(default_factory=set)
    flag_macros: set[str] = field(default_factory=set)
    toggles: dict[str, bool] = field(default_factory=dict)

    def start(self, options: set[str]) -> None:
        """A class or local package begins: these options were passed to it."""
        self.given = set(options)
        self.declared = {}


def provides(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\ProvidesPackage{name}` opens a local package: its options are those it was
    loaded with (the class's options for `\\ProvidesClass`)."""
    args, pos = texscan.read_args(text, m.end(), "{[")
    name = (args[0] or "").strip()
    state = walker.options
    state.start(state.passed.get(name, walker.reg.class_options))
    return pos


def declare_option(walker: Walker, text: str, m: re.Match[str]) -> int:
    # the walker's match already holds a star written right after the name (`\\DeclareOption*`)
    star, pos = texscan.read_star(text, m.end())
    if star or m.group(2):
        return texscan.read_args(text, pos, "{")[1]
    args, pos = texscan.read_args(text, pos, "{{")
    name, code = (args[0] or "").strip(), args[1] or ""
    state = walker.options
    state.declared[name] = code
    state.flag_macros.update(re.findall(r"\\let\s*(\\[A-Za-z@]+)", code))
    return pos


def process_options(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\ProcessOptions` runs the code of every declared option that was given, in
    declaration order (`\\ProcessOptions*`: in the order given; the same for numbering)."""
    _, pos = texscan.read_star(text, m.end())
    state = walker.options
    for name, code in list(state.declared.items()):
        if name in state.given:
            walker.expand_snippet(code, m.start(), pos)
    return pos


def execute_options(walker: Walker, text: str, m: re.Match[str]) -> int:
    args, pos = texscan.read_args(text, m.end(), "{")
    for name in texscan.split_keys(args[0] or ""):
        code = walker.options.declared.get(name)
        if code is not None:
            walker.expand_snippet(code, m.start(), pos)
    return pos


def ifx(walker: Walker, text: str, pos: int) -> tuple[bool | None, int]:
    """`\\ifx\\a\\relax` (or `\\ifx\\relax\\a`) when the answer is known: `\\a` was `\\let`
    to `\\relax`, or defined otherwise, or is a flag some option sets and no given option
    did. Anything else is unknown (None) and both branches are read, as before."""
    first = _CS.match(text, pos)
    second = _CS.match(text, first.end()) if first else None
    if first is None or second is None:
        return None, pos
    a, b = first.group(1), second.group(1)
    if a == _RELAX:
        a, b = b, a
    if b != _RELAX or a == _RELAX:
        return None, pos
    state = walker.options
    if a in state.lets:
        return state.lets[a] == _RELAX, second.end()
    if a in state.defined:
        return False, second.end()
    if a in state.flag_macros:
        return False, second.end()
    return None, pos


def record_let(walker: Walker, name: str, target: str) -> None:
    state = walker.options
    state.lets[name] = state.lets.get(target, target)
    # `\\let\\if@envcntsame\\iffalse` (llncs): a conditional with a known value, as \\newif's
    if name.startswith("\\if") and state.lets[name] in ("\\iftrue", "\\iffalse"):
        walker.toggles.flags[name[3:]] = state.lets[name] == "\\iftrue"
    counters = walker.reg.counters
    if name.startswith("\\c@") and target.startswith("\\c@") and counters.exists(target[3:]):
        # `\\let\\c@obs\\c@theorem`: one count register under two names (a shared counter
        # that keeps its own \\theobs)
        counters.aliases[name[3:]] = counters.real(target[3:])
    the = counters.the
    saved = walker.saved_the
    # `\let\saved\thelemma` keeps the current `\thelemma`; `\let\thelemma\saved` restores it
    if target.startswith("\\the") and target[4:] in the:
        saved[name] = the[target[4:]]
    if name.startswith("\\the") and name[4:] in the and target in saved:
        the[name[4:]] = saved[target]


_CSNAME_LET = re.compile(
    r"\\expandafter\s*\\let\s*\\csname\s*([^\\{}]*?)\s*\\endcsname\s*=?\s*(\\[A-Za-z@]+)"
)


def expandafter(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\expandafter\\let\\csname c@obs\\endcsname\\c@theorem`: a `\\let` of a name built
    with `\\csname` (other uses of `\\expandafter` are read on as before)."""
    match = _CSNAME_LET.match(text, m.start())
    if match is None:
        return m.end()
    record_let(walker, "\\" + match.group(1).strip(), match.group(2))
    return match.end()


# -- etoolbox toggles ---------------------------------------------------------------------


def newtoggle(walker: Walker, text: str, m: re.Match[str]) -> int:
    args, pos = texscan.read_args(text, m.end(), "{")
    name = (args[0] or "").strip()
    if name:
        walker.options.toggles.setdefault(name, False)
    return pos


def set_toggle(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\toggletrue{T}`, `\\togglefalse{T}`, `\\settoggle{T}{true}`."""
    word = m.group(1)
    if word == "settoggle":
        args, pos = texscan.read_args(text, m.end(), "{{")
        value = (args[1] or "").strip() == "true"
    else:
        args, pos = texscan.read_args(text, m.end(), "{")
        value = word == "toggletrue"
    name = (args[0] or "").strip()
    if name:
        walker.options.toggles[name] = value
    return pos


def iftoggle(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\iftoggle{T}{yes}{no}` (`\\nottoggle` swaps them): read only the branch taken.
    An unknown toggle is false (etoolbox raises an error, then takes no branch we know)."""
    args, pos = texscan.read_args(text, m.end(), "{")
    name = (args[0] or "").strip()
    value = walker.options.toggles.get(name)
    yes = texscan.read_group(text, pos)
    no = texscan.read_group(text, yes[1]) if yes else None
    if value is None or yes is None or no is None:
        return pos  # not the form we know: read on as before
    if m.group(1) == "nottoggle":
        value = not value
    start = _group_start(text, pos) if value else _group_start(text, yes[1])
    body = yes[0] if value else no[0]
    walker.scan(text, start, start + len(body))
    return no[1]


def _group_start(text: str, pos: int) -> int:
    """Offset just inside the `{` of the group that starts at or after `pos`."""
    start = texscan.skip_spaces(text, pos)
    return start + 1 if start < len(text) and text[start] == "{" else start

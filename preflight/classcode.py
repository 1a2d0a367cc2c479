"""What class and package code decides before the document starts, emulated as far as
numbering needs: declared options run only when given, and the flags they set for
`\\ifx\\flag\\relax` tests (`conditionals.ifx`).

A class writes `\\DeclareOption{supplement}{\\@supplementtrue}` and later `\\ProcessOptions`:
the option's code runs at `\\ProcessOptions`, and only when the option was passed. Reading
the code where it is declared would switch every option on.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from paperlint.preflight import expansion, lazyre, texscan
from paperlint.preflight.record import Record

if TYPE_CHECKING:
    from paperlint.preflight.numbering import Walker


class OptionState(Record):
    """Options of the class or package being read, the code its options declared, and the
    macros `\\let` or defined so far (for `\\ifx`)."""

    __slots__ = ("given", "passed", "declared", "lets", "defined", "flag_macros")
    given: set[str]
    passed: dict[str, set[str]]
    declared: dict[str, str]
    lets: dict[str, str]
    defined: set[str]
    flag_macros: set[str]

    def __init__(self) -> None:
        self.given = set()
        self.passed = {}
        self.declared = {}
        self.lets = {}
        self.defined = set()
        self.flag_macros = set()

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
            walker.expand_snippet(code, walker.at(m.start()), walker.at(pos, body=True))
    return pos


def execute_options(walker: Walker, text: str, m: re.Match[str]) -> int:
    args, pos = texscan.read_args(text, m.end(), "{")
    for name in texscan.split_keys(args[0] or ""):
        code = walker.options.declared.get(name)
        if code is not None:
            walker.expand_snippet(code, walker.at(m.start()), walker.at(pos, body=True))
    return pos


def record_let(walker: Walker, name: str, target: str) -> None:
    state = walker.options
    state.lets[name] = state.lets.get(target, target)
    # `\\let\\ignore\\@gobble`, `\\let\\oldsupp\\supp`: the same macro under a new name
    expander = walker.expander
    meaning = expander.table.get(target[1:]) or expansion.KERNEL.get(target)
    if meaning is not None:
        expander.define(name[1:], meaning)
    else:
        expander.forget(name[1:])
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


_CSNAME_LET = lazyre.pattern(
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

"""The expansion layer of the document walk: a use of a user macro is replaced by its body
with the arguments put in, as TeX does, and the walk reads the result.

So a macro that drops its argument (`\\newcommand\\ignore[1]{}`) hides what the argument
holds, and one that wraps it (`\\newcommand\\supp[1]{\\ifarxiv#1\\fi}`,
`\\newcommand\\thmlab[1]{\\label{thm:#1}}`) is followed. Only macros whose expansion can change
what the walk records are expanded (`Expander.active`); reading any other one as text, as
before, gives the same inventory for less work.

Bounded: expansions nest at most `MAX_DEPTH` deep, a macro already being expanded twice is
not expanded again (`\\def\\a{\\a}`), and all expansions together produce at most
`budget(len(text))` characters (each counting `EXPANSION_OVERHEAD` more), so the cost stays
linear in the input.

Offsets: an expansion is read as a snippet, and its `SourceMap` says where each part comes
from. An argument's text maps to its place in the source, so a theorem inside `\\supp{...}`
keeps its own lines; the body's own text maps to the macro call.
"""

from __future__ import annotations

from typing import NamedTuple

from paperlint.preflight import lazyre, texscan
from paperlint.preflight.macros import NO_VALUE, ArgSpec, Definition, glues, parameter_parts
from paperlint.preflight.record import Record

MAX_DEPTH = 16
MAX_SAME_MACRO = 2  # a macro may be expanded inside its own expansion once (TeX loops)
# what one expansion costs against the budget besides its characters: reading a snippet has
# a fixed cost, so a bomb of tiny expansions (`\\def\\b{\\a\\a}` twenty times over) is
# bounded too
EXPANSION_OVERHEAD = 100
_WORD = lazyre.pattern(r"\\([A-Za-z@]+)")
# the kernel's macros that keep or drop their arguments: known to every walk (a paper's
# `\\newcommand{\\arxivonly}{\\@firstoftwo}`, or `\\@secondoftwo{…}{…}` itself, reads one)
PICKERS = {
    "\\@gobble": Definition("\\@gobble", "", (ArgSpec("m"),)),
    "\\@gobbletwo": Definition("\\@gobbletwo", "", (ArgSpec("m"), ArgSpec("m"))),
    "\\@firstofone": Definition("\\@firstofone", "#1", (ArgSpec("m"),)),
    "\\@firstoftwo": Definition("\\@firstoftwo", "#1", (ArgSpec("m"), ArgSpec("m"))),
    "\\@secondoftwo": Definition("\\@secondoftwo", "#2", (ArgSpec("m"), ArgSpec("m"))),
}
# kernel macros a paper may `\\let` its own to (`\\let\\ignore\\@gobble`,
# `\\let\\lbl\\label`): what a use of the new name does
KERNEL = {
    **PICKERS,
    **{
        f"\\{name}": Definition(f"\\{name}", f"\\{name}{{#1}}", (ArgSpec("m"),))
        for name in ("label", "refstepcounter", "stepcounter", "begin", "end")
    },
}


def budget(length: int) -> int:
    """The characters all expansions of one document may produce together (each expansion
    also costs `EXPANSION_OVERHEAD`)."""
    return 1_000_000 + 4 * length


class SourceMap(NamedTuple):
    """Where a snippet's text comes from: `pieces` are (start, end, source) runs of the
    snippet copied from the source at `source`; everything else stands for the macro call
    that made the snippet, which begins at `begin` and is followed by `after`."""

    begin: int
    after: int
    pieces: tuple[tuple[int, int, int], ...] = ()

    def flat(self, pos: int, *, body: bool = False) -> int:
        """The source offset of snippet offset `pos`; outside the pieces, the call's start
        (or, for where a body starts, the offset after the call)."""
        for start, end, source in self.pieces:
            if start <= pos < end or (pos == end and not body and end > start):
                return source + pos - start
        return self.after if body else self.begin

    def carry(self, start: int, end: int, to: int) -> list[tuple[int, int, int]]:
        """The pieces of snippet text [start, end) once it is copied to offset `to` of a
        new snippet."""
        out: list[tuple[int, int, int]] = []
        for p_start, p_end, source in self.pieces:
            low, high = max(start, p_start), min(end, p_end)
            if low < high:
                out.append((to + low - start, to + high - start, source + low - p_start))
        return out


class Arg(NamedTuple):
    """One argument of a macro call, with where it stands in the calling text."""

    text: str
    start: int | None  # where `text` begins in the calling text; None for a default


def read_call(text: str, pos: int, params: tuple[ArgSpec, ...]) -> tuple[list[Arg], int] | None:
    """The arguments of a use at `pos` (just after the macro's name) and the offset after
    them; None when a mandatory one is missing (the use is then read as text)."""
    args: list[Arg] = []
    for param in params:
        if param.kind == "s":
            star, pos = texscan.read_star(text, pos)
            args.append(Arg("\\BooleanTrue" if star else "\\BooleanFalse", None))
        elif param.kind == "o":
            span = texscan.read_optional_span(text, pos)
            if span is None:
                args.append(Arg(NO_VALUE if param.default is None else param.default, None))
            else:
                args.append(Arg(text[span[0] : span[1]], span[0]))
                pos = span[2]
        else:
            group = texscan.read_group_span(text, pos)
            if group is None:
                return None
            args.append(Arg(text[group[0] : group[1]], group[0]))
            pos = group[2]
    return args, pos


def substitute(
    body: str, args: list[Arg], source: SourceMap | None
) -> tuple[str, tuple[tuple[int, int, int], ...]]:
    """The body with `#n` replaced by the arguments and `##` by `#`, and the pieces that map
    each argument's copy back to the source (through `source`, the calling snippet's map,
    when the call is itself inside a snippet)."""
    out: list[str] = []
    pieces: list[tuple[int, int, int]] = []
    length = 0
    for part in parameter_parts(body):
        text = args[part].text if isinstance(part, int) and part < len(args) else part
        if out and isinstance(text, str) and glues(out[-1], text):
            out.append(" ")  # `\\relax#1` with `x`: two tokens, not `\\relaxx`
            length += 1
        if isinstance(part, int):
            if part >= len(args):
                continue
            arg = args[part]
            if arg.start is not None and arg.text:
                if source is None:
                    pieces.append((length, length + len(arg.text), arg.start))
                else:
                    pieces.extend(source.carry(arg.start, arg.start + len(arg.text), length))
            part = arg.text
        out.append(part)
        length += len(part)
    return "".join(out), tuple(pieces)


class Shape(NamedTuple):
    """What a definition's body holds, read once: its control words, and whether a use
    drops or repeats an argument (then it must be expanded to be read right)."""

    words: frozenset[str]
    drops: bool


def shape(definition: Definition) -> Shape:
    body = definition.body
    used = [part for part in parameter_parts(body) if isinstance(part, int)]
    params = definition.params or ()
    drops = any(param.kind != "s" and used.count(index) != 1 for index, param in enumerate(params))
    return Shape(frozenset(_WORD.findall(body)), drops)


class Relevance(NamedTuple):
    """The control words that make a macro worth expanding (see `Expander.active`)."""

    always: frozenset[str]
    with_arguments: frozenset[str]


class Expander(Record):
    """The macro table of the walk, and the bounds on expanding it."""

    __slots__ = (
        "length",
        "table",
        "defined_at",
        "left",
        "stack",
        "reported",
        "_shapes",
        "_active",
        "_state",
        "changed",
    )
    length: int
    table: dict[str, Definition]
    # the names defined or forgotten since a reader of the table last caught up (it clears it)
    changed: list[str]
    defined_at: dict[str, int]
    left: int
    stack: list[str]
    reported: set[str]
    _shapes: dict[str, Shape]
    _active: dict[str, bool]
    _state: object

    def __init__(self, length: int = 0) -> None:
        self.length = length
        self.table = {name[1:]: definition for name, definition in PICKERS.items()}
        self.changed = []
        self.defined_at = {}
        self.left = budget(length)
        self.stack = []
        self.reported = set()
        self._shapes = {}
        self._active = {}
        self._state = None

    def alias(self, name: str) -> str:
        """The macro a use of `name` stands for when its whole body is another macro that takes
        arguments, directly or through such aliases (`\\newcommand{\\arxivonly}{\\@firstoftwo}`):
        TeX reads that macro's arguments from the text after the use, where an expansion read
        on its own has none. Otherwise `name` itself."""
        current = name
        for _ in range(MAX_DEPTH):
            definition = self.table[current]
            if definition.params:
                return current
            word = _WORD.fullmatch(definition.body.strip()) if definition.params == () else None
            if word is None or word.group(1) not in self.table:
                return name
            current = word.group(1)
        return name

    def define(self, name: str, definition: Definition, at: int = -1) -> None:
        """`name` without its backslash; `at` where the definition is (a source offset)."""
        self.table[name] = definition
        self.changed.append(name)
        self.defined_at[name] = at
        self._shapes.pop(name, None)
        self._active.clear()

    def forget(self, name: str) -> None:
        if self.table.pop(name, None) is not None:
            self.changed.append(name)
            self._shapes.pop(name, None)
            self._active.clear()

    def shape(self, name: str) -> Shape:
        found = self._shapes.get(name)
        if found is None:
            found = self._shapes[name] = shape(self.table[name])
        return found

    def active(self, name: str, relevant: Relevance, state: object) -> bool:
        """Whether expanding `name` can change what the walk records: it drops or repeats an
        argument, its body (or a macro it uses) holds a word of `relevant.always`, or it
        takes arguments and holds a conditional of `relevant.with_arguments` that may pick
        one (`\\newcommand\\supp[1]{\\ifarxiv#1\\fi}`; package code is full of `\\ifnum`
        tests that pick nothing). `state` changes whenever `relevant` does, and then the
        answers are worked out again. Worked out without recursion: a chain of ten thousand
        macros each using the next must not exhaust the stack."""
        if state != self._state:
            self._active.clear()
            self._state = state
        found = self._active.get(name)
        if found is not None:
            return found
        # the macros `name` reaches, then activity spread back from the active ones to the
        # macros that use them (linear in the macros and their uses; a cycle adds nothing)
        reach, index = [name], 0
        known = {name}
        while index < len(reach):
            for word in self.shape(reach[index]).words:
                if word in self.table and word not in known and word not in self._active:
                    known.add(word)
                    reach.append(word)
            index += 1
        value: dict[str, bool] = {}
        users: dict[str, list[str]] = {}
        for current in reach:
            value[current] = self._own(current, relevant)
            if self.table[current].params is None:
                continue  # a use that cannot be read is never expanded
            for word in self.shape(current).words:
                if word in self._active:
                    value[current] = value[current] or self._active[word]
                elif word in known:
                    users.setdefault(word, []).append(current)
        spread = [current for current in reach if value[current]]
        while spread:
            for user in users.get(spread.pop(), ()):
                if not value[user]:
                    value[user] = True
                    spread.append(user)
        self._active.update(value)
        return value[name]

    def _own(self, name: str, relevant: Relevance) -> bool:
        """Whether `name` is active by its own body, whatever macros it uses."""
        definition = self.table[name]
        if definition.params is None:
            return False
        own = self.shape(name)
        if own.drops or own.words & relevant.always:
            return True
        return bool(definition.params) and bool(own.words & relevant.with_arguments)

    def refuse(self, name: str, size: int = 0) -> str | None:
        """None when a use of `name` producing `size` characters may be expanded now;
        otherwise the reason it may not. Asked once before its arguments are read (they
        may run to the end of an unbalanced text: a refusal must cost nothing) and once
        with the size of its expansion."""
        if len(self.stack) >= MAX_DEPTH:
            return "depth"
        if self.stack.count(name) >= MAX_SAME_MACRO:
            return "recursion"
        if size + EXPANSION_OVERHEAD > self.left:
            self.left = 0  # spent: later uses are refused before their arguments are read
            return "budget"
        return None

    def spend(self, size: int) -> None:
        self.left -= size + EXPANSION_OVERHEAD

"""Conditionals, evaluated in document order: a branch LaTeX skips is not content.

`\\iffalse`/`\\if0` are blanked by the pre-pass; the walker evaluates the rest as it reaches
them, from the state the document has built so far:

- `\\newif\\ifdraft` with `\\drafttrue`/`\\draftfalse`, and etoolbox booleans (`\\newbool`,
  `\\setbool`, `\\booltrue`, `\\ifbool`, `\\notbool`; a boolean is a `\\newif` underneath, so
  `\\ifdraft` reads it too) and toggles (`\\newtoggle`, `\\toggletrue`, `\\iftoggle`);
  ifthen's `\\newboolean`, `\\setboolean` and `\\ifthenelse` on `\\boolean`, `\\equal`,
  `\\isodd` and number comparisons;
- `\\ifcase`, `\\ifnum`, `\\ifodd` on counters, registers and macros with a known value;
- `\\ifdefined`, `\\ifcsname`, `\\ifx` and etoolbox's `\\ifdef` on macros the paper defines;
- etoolbox's tests with arguments (`etoolbox_test`): strings as written, the paper's macros'
  definitions, `\\numexpr` comparisons, `\\ifboolexpr` over all of these.

A condition whose value is not known keeps the old reading (both branches are read); when
results or labels turn out to be inside it, a diagnostic names it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from paperlint.preflight import lazyre, macros, numexpr, prepass, texscan
from paperlint.preflight.record import Record

if TYPE_CHECKING:
    from paperlint.preflight.numbering import Walker

# `\\loop ... \\ifdim ... \\repeat`: plain TeX's \\repeat closes the loop's conditional
_TOKEN = lazyre.pattern(r"\\(if[A-Za-z@]*|else|fi|or|repeat)(?![A-Za-z@])")
_CS = lazyre.pattern(r"\s*(\\[A-Za-z@]+|\\.)")
_UNDEFINED = ("\\undefined", "\\@undefined")
_EMPTY = ("\\empty", "\\@empty")
_RELAX = "\\relax"
# TeX's own tests of modes, boxes, files and characters: never known, never reported
_OPAQUE = frozenset(
    {"ifmmode", "ifvmode", "ifhmode", "ifinner", "ifdim", "ifvoid", "ifhbox", "ifvbox", "ifeof"}
    | {"if", "ifcat", "iftrue", "iffalse", "ifincsname", "ifpdfprimitive"}
)


class Branch(Record):
    """An open conditional: "true" (reading its true branch), "else" (reading its else
    branch), "case" (reading the selected `\\ifcase` branch) or "unknown" (reading on)."""

    __slots__ = ("state", "pos", "name", "events")
    state: str
    pos: int
    name: str
    events: int

    def __init__(self, state: str, pos: int = 0, name: str = "", events: int = 0) -> None:
        self.state = state
        self.pos = pos
        self.name = name
        self.events = events


class Toggles(Record):
    """Booleans (`\\newif` and etoolbox's `\\newbool`, one namespace), etoolbox toggles and
    the conditionals open at the walker's position."""

    __slots__ = ("flags", "toggles", "stack")
    flags: dict[str, bool]
    toggles: dict[str, bool]
    stack: list[Branch]

    def __init__(self) -> None:
        self.flags = {}
        self.toggles = {}
        self.stack = []

    def declare(self, name: str) -> None:
        self.flags[name] = False

    def assign(self, word: str) -> bool:
        """`\\drafttrue`/`\\draftfalse`: set the flag; False if `word` is no such setter."""
        for suffix, value in (("true", True), ("false", False)):
            flag = word.removesuffix(suffix)
            if word.endswith(suffix) and flag in self.flags:
                self.flags[flag] = value
                return True
        return False


def is_conditional(word: str) -> bool:
    return word.startswith("if") and word not in prepass.NOT_CONDITIONALS


def skip_branch(text: str, pos: int, *, stop_at_else: bool) -> tuple[int, bool]:
    """From inside a false branch, the offset after its matching `\\else` (when wanted) or
    `\\fi`; the flag says whether an `\\else` was where it stopped."""
    end, word = _skip(text, pos, stop_at=("else",) if stop_at_else else (), ors=0)
    return end, word == "else"


def _skip(text: str, pos: int, *, stop_at: tuple[str, ...], ors: int) -> tuple[int, str]:
    """Skip to the matching `\\fi`, or to the first word of `stop_at` at this level; with
    `ors`, to the `ors`-th `\\or` (an `\\ifcase` branch). Returns the offset after the word
    where it stopped and the word ("" at the end of the text)."""
    depth = 0
    for match in _TOKEN.finditer(text, pos):
        word = match.group(1)
        if word.startswith("if") and prepass.is_named_conditional(text, match.start()):
            continue  # `\\newif\\iffoo`, `\\let\\iffoo\\iftrue`: no branch opens
        if word.startswith("if"):
            depth += is_conditional(word)
        elif word == "repeat":
            depth = max(depth - 1, 0)
        elif word == "fi":
            if depth == 0:
                return match.end(), "fi"
            depth -= 1
        elif depth == 0 and word == "or" and ors > 0:
            ors -= 1
            if ors == 0:
                return match.end(), "or"
        elif depth == 0 and word in stop_at:
            return match.end(), word
    return len(text), ""


# -- the walker's primitives ---------------------------------------------------------------


def primitive(walker: Walker, text: str, m: re.Match[str], name: str) -> int:
    """`\\if…`, `\\else`, `\\or`, `\\fi`: evaluate a conditional or move past a branch."""
    stack = walker.toggles.stack
    if name in ("fi", "repeat"):
        if stack:
            close(walker, stack.pop())
        return m.end()
    if name in ("else", "or"):
        if stack and stack[-1].state in ("true", "case"):
            close(walker, stack.pop())
            return skip_branch(text, m.end(), stop_at_else=False)[0]
        return m.end()
    if name == "newif":
        return _newif(walker, text, m)
    value, end = _evaluate(walker, text, m.end(), name)
    if isinstance(value, int) and not isinstance(value, bool):
        return _case(walker, text, end, value)
    if value is not None:
        return branch(walker, text, end, value)
    if is_conditional(name):
        stack.append(Branch("unknown", walker.at(m.start()), name, walker.events))
    return end


def _evaluate(walker: Walker, text: str, pos: int, name: str) -> tuple[bool | int | None, int]:
    """The value of the test that `\\name` opens at `pos`, and where the test ends: a bool,
    an `\\ifcase` number, or None when not known."""
    flags = walker.toggles.flags
    if name == "iftrue" or name[2:] in flags:
        return name == "iftrue" or flags[name[2:]], pos
    if name == "ifcase":
        return numexpr.read_number(text, pos, walker)
    if name == "ifnum":
        return numexpr.read_relation(text, pos, walker)
    if name == "ifodd":
        number, end = numexpr.read_number(text, pos, walker)
        return (None if number is None else number % 2 == 1), end
    if name == "ifx":
        return ifx(walker, text, pos)
    if name in ("ifdefined", "ifcsname"):
        return _ifdefined(walker, text, pos, name)
    if name == "if":
        return _if_characters(walker, text, pos)
    return None, pos


def _if_characters(walker: Walker, text: str, pos: int) -> tuple[bool | None, int]:
    """TeX's `\\if`: compare the next two tokens after expansion, here characters, the
    paper's own argument-free macros (JASA's `\\if0\\blind`, `\\newcommand{\\blind}{1}`),
    `\\detokenize{…}` (its characters) and `\\relax`, which `\\if` compares equal to any other
    unexpandable command: the emptiness test `\\if\\relax\\detokenize{#1}\\relax`."""
    tokens: list[str] = []
    while len(tokens) < 2 and pos < len(text):
        if text[pos] in "{}%":
            return None, pos
        if text[pos] != "\\":
            tokens.append(text[pos])
            pos += 1
            continue
        word = texscan.CONTROL_WORD.match(text, pos)
        if word is None:  # a lone `\\` ends the text
            return None, pos
        name = word.group(1)
        if name == "relax":
            tokens.append(_UNEXPANDABLE)
            pos = texscan.skip_spaces(text, word.end(), newline=False)
            continue
        if name == "detokenize":
            start = texscan.skip_spaces(text, word.end())
            group = texscan.read_group_span(text, start) if text.startswith("{", start) else None
            if group is None:
                return None, pos
            tokens.extend(_detokenized(text[group[0] : group[1]])[: 2 - len(tokens)])
            pos = group[2]
            continue
        body = walker.macro_body(name)
        expanded = walker.expand_text(body) if body is not None else None
        if not expanded:
            # `\\if0` before a macro not known here is false, as the pre-pass always took it
            return (False, pos) if tokens == ["0"] else (None, pos)
        tokens.extend(expanded[: 2 - len(tokens)])
        pos = texscan.skip_spaces(text, word.end(), newline=False)
    if len(tokens) < 2:
        return None, pos
    return tokens[0] == tokens[1], pos


_UNEXPANDABLE = "\\relax"
"""What `\\if` reads `\\relax` as: character code 256, equal to any unexpandable command's."""


def branch(walker: Walker, text: str, pos: int, value: bool) -> int:
    """A conditional whose value is known: read on in the true branch, else skip to its
    `\\else` or `\\fi`."""
    if value:
        walker.toggles.stack.append(Branch("true"))
        return pos
    end, at_else = skip_branch(text, pos, stop_at_else=True)
    if at_else:
        walker.toggles.stack.append(Branch("else"))
    return end


def _case(walker: Walker, text: str, pos: int, value: int) -> int:
    """`\\ifcase n`: read branch n (after the n-th `\\or`), else the `\\else` branch."""
    if value == 0:
        walker.toggles.stack.append(Branch("case"))
        return pos
    if value < 0:
        end, word = _skip(text, pos, stop_at=("else",), ors=0)
    else:
        end, word = _skip(text, pos, stop_at=("else",), ors=value)
    if word in ("or", "else"):
        walker.toggles.stack.append(Branch("case" if word == "or" else "else"))
    return end


def close(walker: Walker, branch_: Branch) -> None:
    """A conditional ends: if its value was unknown and results or labels were read inside,
    say which condition they depend on."""
    if branch_.state != "unknown" or branch_.events == walker.events:
        return
    if branch_.name in _OPAQUE or branch_.name.startswith("if@"):
        return
    walker.problem(
        branch_.pos,
        "warning",
        "unknown-condition",
        f"\\{branch_.name}: its value is not known here, so both branches were read; "
        "results or labels inside may not be typeset (use --latex)",
    )


def _newif(walker: Walker, text: str, m: re.Match[str]) -> int:
    match = re.compile(r"\s*\\if([A-Za-z@]+)").match(text, m.end())
    if match is None:
        return m.end()
    walker.toggles.declare(match.group(1))
    return match.end()


# -- \\ifx, \\ifdefined --------------------------------------------------------------------


def ifx(walker: Walker, text: str, pos: int) -> tuple[bool | None, int]:
    """`\\ifx\\a\\b` when the answer is known: both macros defined by the paper (same
    parameters and body), `\\a` defined and `\\b` undefined or empty, or the class-option
    flags tested against `\\relax`. Anything else is unknown (None)."""
    first = _CS.match(text, pos)
    second = _CS.match(text, first.end()) if first else None
    if first is None or second is None:
        return None, pos
    a, b = first.group(1), second.group(1)
    if a in (_RELAX, *_UNDEFINED, *_EMPTY):
        a, b = b, a
    value = _same_meaning(walker, a, b)
    return (value, second.end()) if value is not None else (None, pos)


def _same_meaning(walker: Walker, a: str, b: str) -> bool | None:
    table = walker.expander.table
    state = walker.options
    if b == _RELAX and a != _RELAX:
        if a in state.lets:
            return state.lets[a] == _RELAX
        if a in state.defined or a in state.flag_macros:
            return False
        return None
    if a in _UNDEFINED or a == b:
        return a == b or None
    defined_a = a[1:] in table or a in state.defined
    if b in _UNDEFINED:
        return False if defined_a else None
    if b in _EMPTY:
        found = table.get(a[1:])
        return None if found is None else (found.body.strip() == "" and not found.params)
    left, right = table.get(a[1:]), table.get(b[1:])
    if left is None or right is None:
        return None
    return left.params == right.params and left.body == right.body


def _ifdefined(walker: Walker, text: str, pos: int, name: str) -> tuple[bool | None, int]:
    """`\\ifdefined\\foo` / `\\ifcsname foo\\endcsname`: true when the paper defined `\\foo`
    before this point (a package may define what the paper does not: unknown then)."""
    if name == "ifcsname":
        match = re.compile(r"\s*([A-Za-z@]+)\s*\\endcsname").match(text, pos)
        macro = "\\" + match.group(1) if match else None
    else:
        found = _CS.match(text, pos)
        macro, match = (found.group(1), found) if found else (None, None)
    if match is None or macro is None:
        return None, pos
    return (True, match.end()) if _defined(walker, macro) else (None, pos)


def _defined(walker: Walker, macro: str) -> bool:
    name = macro[1:]
    flags = walker.toggles.flags
    return (
        name in walker.expander.table
        or macro in walker.options.defined
        or macro in walker.options.lets
        or name[2:] in flags
        or any(name == flag + suffix for flag in flags for suffix in ("true", "false"))
    )


# -- etoolbox and ifthen -------------------------------------------------------------------


def newbool(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\newbool{b}`/`\\providebool{b}` (etoolbox), `\\newboolean{b}` (ifthen): a `\\newif`."""
    args, pos = texscan.read_args(text, m.end(), "{")
    name = (args[0] or "").strip()
    if name and (m.group(1).startswith("new") or name not in walker.toggles.flags):
        walker.toggles.declare(name)
    return pos


def setbool(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\setbool{b}{true}`, `\\setboolean{b}{true}`, `\\booltrue{b}`, `\\boolfalse{b}`."""
    word = m.group(1)
    if word in ("setbool", "setboolean"):
        args, pos = texscan.read_args(text, m.end(), "{{")
        given = walker.expand_text(args[1] or "")  # `\\setbool{b}{\\mode}`, `\\def\\mode{true}`
        value = (given or "").strip().lower() == "true"
    else:
        args, pos = texscan.read_args(text, m.end(), "{")
        value = word == "booltrue"
    name = (args[0] or "").strip()
    if name in walker.toggles.flags:
        walker.toggles.flags[name] = value
    return pos


def newtoggle(walker: Walker, text: str, m: re.Match[str]) -> int:
    args, pos = texscan.read_args(text, m.end(), "{")
    name = (args[0] or "").strip()
    if name:
        walker.toggles.toggles.setdefault(name, False)
    return pos


def settoggle(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\toggletrue{T}`, `\\togglefalse{T}`, `\\settoggle{T}{true}`."""
    word = m.group(1)
    if word == "settoggle":
        args, pos = texscan.read_args(text, m.end(), "{{")
        value = (walker.expand_text(args[1] or "") or "").strip() == "true"
    else:
        args, pos = texscan.read_args(text, m.end(), "{")
        value = word == "toggletrue"
    name = (args[0] or "").strip()
    if name:
        walker.toggles.toggles[name] = value
    return pos


def etoolbox_test(walker: Walker, text: str, m: re.Match[str]) -> int:
    """An etoolbox test (`prepass.ETOOLBOX_TESTS`: `\\iftoggle{T}`, `\\ifdefstring{\\cmd}{s}`,
    `\\ifnumcomp{a}{<}{b}`, `\\ifboolexpr{…}`, …) and its `{true}{false}`: only the branch
    taken is read; both when the value is not known here (a name never declared, a macro the
    paper does not define, a dimension), and then results or labels inside are reported."""
    word = m.group(1)
    args, pos = texscan.read_args(text, m.end(), "{" * prepass.ETOOLBOX_TESTS[word])
    given = [arg or "" for arg in args]
    value = test_value(walker, word, given) if None not in args else None
    shown = word + "".join(f"{{{arg.strip()}}}" for arg in given)
    return two_branches(walker, text, m.start(), pos, value, shown[:80])


KERNEL_TESTS = ("@ifundefined", "@ifpackageloaded", "@ifclassloaded", "IfFileExists")
"""LaTeX's own tests of one argument followed by `{true}{false}`."""


def kernel_test(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\@ifundefined{name}`, `\\@ifpackageloaded{pkg}`, `\\@ifclassloaded{cls}`,
    `\\IfFileExists{file}` and their `{true}{false}`: known where the walk saw the answer
    (the paper defined `name`, loaded `pkg` or `cls` so far; `file` is beside the paper);
    otherwise both branches are read (a package may define or load what the paper does not,
    and TeX finds files in its own tree too)."""
    word = m.group(1)
    args, pos = texscan.read_args(text, m.end(), "{")
    name = (args[0] or "").strip()
    value: bool | None
    if word == "@ifundefined":
        value = False if _defined_name(walker, name) else None
    elif word == "@ifclassloaded" and walker.classes and walker.classes <= LEAF_CLASSES:
        value = name in walker.classes  # every class loaded is known, and loads no other
    else:
        value = True if _seen(walker, word, name) else None
    return two_branches(walker, text, m.start(), pos, value, f"{word}{{{name}}}"[:80])


LEAF_CLASSES = frozenset(
    {"article", "report", "book", "amsart", "amsbook", "IEEEtran", "revtex4-1", "revtex4-2"}
    | {"scrartcl", "scrreprt", "scrbook", "memoir"}
)
"""Classes whose TeX Live copy (2022) holds no `\\LoadClass`: a paper of one of these (and of
no class the walk did not see) has loaded no other class."""


def _seen(walker: Walker, word: str, name: str) -> bool:
    if word == "@ifpackageloaded":
        return name in walker.reg.packages
    if word == "@ifclassloaded":
        return name in walker.classes
    return bool(name) and walker.exists is not None and walker.exists(name)


LOOK_AHEAD = ("@ifstar", "@ifnextchar")
"""The kernel's tests of the character after them."""


def look_ahead(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\@ifstar{starred}{plain}` (a `*` after them is taken) and `\\@ifnextchar[{yes}{no}`:
    the branch the next character picks, spaces skipped. Not known where they end the text
    being read, a macro's body (`\\newcommand{\\thm}{\\@ifstar{…}{…}}`): its next character
    comes after the macro's use, so both branches are read, with the warning."""
    word = m.group(1)
    parts = _look_ahead_parts(text, m.end(), word)
    if parts is None:
        return m.end()
    wanted, pos, _, no = parts
    after = texscan.skip_spaces(text, no[2])
    value: bool | None = text.startswith(wanted, after)
    if after >= len(text) and text is not walker.text:
        value = None
    end = two_branches(walker, text, m.start(), pos, value, f"{word}")
    return after + 1 if value and word == "@ifstar" else end


Span = tuple[int, int, int]


def _look_ahead_parts(text: str, pos: int, word: str) -> tuple[str, int, Span, Span] | None:
    """What follows `\\@ifstar` or `\\@ifnextchar` (`word`) at `pos`: the character it looks
    for, where its `{yes}` starts, and the spans of `{yes}` and `{no}`; None if not all there."""
    wanted = "*"
    if word == "@ifnextchar":
        at = texscan.skip_spaces(text, pos)
        if at >= len(text) or text[at] in "{}\\":
            return None
        wanted, pos = text[at], at + 1
    yes = texscan.read_group_span(text, pos)
    no = texscan.read_group_span(text, yes[2]) if yes is not None else None
    return None if yes is None or no is None else (wanted, pos, yes, no)


_LOOK_AHEAD_WORD = lazyre.pattern(r"\\@if(?:star|nextchar)(?![A-Za-z@])")


def splice_look_ahead(snippet: str, text: str, end: int) -> tuple[str, int]:
    """A macro's expansion that ends with `\\@ifstar{A}{B}` (or `\\@ifnextchar[{A}{B}`), the
    way LaTeX defines starred commands (`\\newcommand{\\thm}{\\@ifstar{…}{…}}`): TeX reads the
    character after the macro's use, at `end` of `text`, so the branch it picks replaces the
    test (and a `*` there is taken). Anything else: the expansion and `end` unchanged."""
    found = None
    for last in _LOOK_AHEAD_WORD.finditer(snippet):
        found = last
    if found is None:
        return snippet, end
    parts = _look_ahead_parts(snippet, found.end(), found.group(0)[1:])
    if parts is None or snippet[parts[3][2] :].strip():
        return snippet, end
    wanted, _, yes, no = parts
    after = texscan.skip_spaces(text, end)
    if after >= len(text):
        return snippet, end  # the text ends here too: not known (`look_ahead` says so)
    chosen = yes if text.startswith(wanted, after) else no
    if chosen is yes and wanted == "*":
        end = after + 1
    return snippet[: found.start()] + snippet[chosen[0] : chosen[1]], end


def _defined_name(walker: Walker, name: str) -> bool:
    """Whether the control sequence `\\name` is one the walk saw defined: a macro (the
    paper's, a `\\let`, a flag), a counter (`c@x`, `thex`) or an environment."""
    counters = walker.reg.counters
    return (
        _defined(walker, "\\" + name)
        or (name.startswith("c@") and counters.exists(name[2:]))
        or (name.startswith("the") and counters.exists(name[3:]))
        or name in walker.reg.envs
        or name in walker.wrappers
    )


def test_value(walker: Walker, word: str, args: list[str], depth: int = 0) -> bool | None:
    """The value of etoolbox's test `word` on its arguments, as etoolbox.sty computes it;
    None when the walk does not know it."""
    if word in ("iftoggle", "nottoggle", "ifbool", "notbool"):
        table = walker.toggles.toggles if word.endswith("toggle") else walker.toggles.flags
        value = table.get(args[0].strip())
        return None if value is None else value != word.startswith("not")
    if word in ("ifdef", "ifundef", "ifcsdef", "ifcsundef"):
        # defined: known; not defined here: a class or package may define it
        return (word in ("ifdef", "ifcsdef")) if _defined(walker, _command(word, args[0])) else None
    if word in ("ifboolexpr", "ifboolexpe"):
        return _boolexpr(walker, args[0], depth)
    if word in ("ifstrequal", "ifstrempty", "ifblank", "notblank"):
        # the arguments as written, never expanded (etoolbox detokenizes them)
        if word == "ifstrequal":
            return _detokenized(args[0]) == _detokenized(args[1])
        if word == "ifstrempty":
            return args[0] == ""
        return (args[0].strip() == "") == (word == "ifblank")
    if word in ("ifnumcomp", "ifnumequal", "ifnumgreater", "ifnumless", "ifnumodd"):
        return _number_test(walker, word, args)
    return _macro_test(walker, word, args)


def _command(word: str, arg: str) -> str:
    """The command a test names: `\\ifdef{\\cmd}` names it, `\\ifcsdef{cmd}` spells it."""
    return "\\" + arg.strip() if word.startswith("ifcs") else arg.strip()


def _number_test(walker: Walker, word: str, args: list[str]) -> bool | None:
    """`\\ifnumcomp{a}{rel}{b}`, `\\ifnumequal{a}{b}` (`greater`, `less`), `\\ifnumodd{a}`:
    each operand a `\\numexpr`."""
    if word == "ifnumodd":
        odd = numexpr.expression(args[0], walker)
        return None if odd is None else odd % 2 == 1
    relation = {"ifnumequal": "=", "ifnumgreater": ">", "ifnumless": "<"}.get(word)
    if relation is None:
        args, relation = [args[0], args[2]], args[1].strip()
    if relation not in ("<", "=", ">"):
        return None
    left, right = (numexpr.expression(arg, walker) for arg in args)
    return None if left is None or right is None else numexpr.compare(left, relation, right)


_DEFINITION_TESTS = frozenset(
    {"ifdefmacro", "ifcsmacro", "ifdefempty", "ifcsempty", "ifdefvoid", "ifcsvoid"}
    | {"ifdefstring", "ifcsstring", "ifdefstrequal", "ifcsstrequal"}
)


def _macro_test(walker: Walker, word: str, args: list[str]) -> bool | None:
    """Tests of a macro's definition, on the macros the paper defines (`\\newcommand`,
    `\\def`, …): one the walk does not know may be defined by a class or package, so its
    tests are not known here. Tests of primitives' meanings (prefixes, protection, registers,
    lengths, dimensions, list contents) are not known either."""
    if word == "ifltxcounter":
        return True if walker.counter(args[0].strip()) is not None else None
    if word not in _DEFINITION_TESTS:
        return None
    found = walker.expander.table.get(_command(word, args[0])[1:])
    if found is None:
        return None
    if word in ("ifdefmacro", "ifcsmacro"):
        return True
    if word in ("ifdefstrequal", "ifcsstrequal"):
        other = walker.expander.table.get(_command(word, args[1])[1:])
        if other is None or found.params is None or other.params is None:
            return None
        return _meaning(found) == _meaning(other)
    if found.params != ():  # a macro with parameters is neither empty nor any string
        return False
    if word in ("ifdefstring", "ifcsstring"):
        return _detokenized(found.body) == _detokenized(args[1])
    return _detokenized(found.body) == ""


def _meaning(found: macros.Definition) -> tuple[object, str]:
    return found.params, _detokenized(found.body)


_SPACES = lazyre.pattern(r"(\\[A-Za-z@]+)\s*|\s+")


def _detokenized(text: str) -> str:
    """`text` as TeX's `\\detokenize` (and `\\meaning`) print it, for comparing: a run of
    spaces and newlines is one space, and a control word is followed by exactly one."""
    return _SPACES.sub(lambda m: m.group(1) + " " if m.group(1) else " ", text)


_BOOL_TOKEN = lazyre.pattern(
    r"\s*(?:(?P<op>not|and|or)\b|(?P<paren>[()])|(?P<kind>bool|togl|test)\s*)"
)


MAX_BOOLEXPR = 32
"""Operators, parentheses and operands one `\\ifboolexpr` may hold for preflight to read it
(more: not known). The parser recurses on parentheses and `not`s, so this bounds its depth."""
MAX_NESTED_TESTS = 3
"""`\\ifboolexpr` in a `test {…}` in an `\\ifboolexpr`…: deeper is not known."""


def _boolexpr(walker: Walker, expression: str, depth: int) -> bool | None:
    """etoolbox's `\\ifboolexpr`: `not`, `and`, `or` (in that precedence) and parentheses
    over `bool {name}`, `togl {name}` and `test {\\ifstrequal{a}{b}}` (any etoolbox test
    above, without its branches); None for anything else or any operand not known."""
    items: list[str | bool | None] = []
    pos = 0
    while (match := _BOOL_TOKEN.match(expression, pos)) is not None:
        pos = match.end()
        if len(items) >= MAX_BOOLEXPR:
            return None
        if match.group("kind") is None:
            items.append(match.group("op") or match.group("paren"))
            continue
        group = texscan.read_group(expression, pos)
        if group is None:
            return None
        operand, pos = group
        kind = match.group("kind")
        if kind == "test":
            items.append(_test_operand(walker, operand, depth + 1))
        else:
            items.append(test_value(walker, "iftoggle" if kind == "togl" else "ifbool", [operand]))
    if expression[pos:].strip():
        return None
    value, end = _or(items, 0)
    return value if end == len(items) else None


def _test_operand(walker: Walker, code: str, depth: int) -> bool | None:
    if depth > MAX_NESTED_TESTS:
        return None
    code = code.strip()
    word = texscan.CONTROL_WORD.match(code)
    if word is None or word.group(1) not in prepass.ETOOLBOX_TESTS:
        return None
    name = word.group(1)
    args, end = texscan.read_args(code, word.end(), "{" * prepass.ETOOLBOX_TESTS[name])
    if None in args or code[end:].strip():
        return None
    return test_value(walker, name, [arg or "" for arg in args], depth)


_Items = list[str | bool | None]


def _or(items: _Items, pos: int) -> tuple[bool | None, int]:
    return _joined(items, pos, "or", _and)


def _and(items: _Items, pos: int) -> tuple[bool | None, int]:
    return _joined(items, pos, "and", _not)


def _joined(
    items: _Items,
    pos: int,
    word: str,
    operand: Callable[[_Items, int], tuple[bool | None, int]],
) -> tuple[bool | None, int]:
    """Operands joined by `word` (`or`, `and`): one operand true (for `or`; false for `and`)
    decides, whatever the others; else not known if any operand is not."""
    deciding = word == "or"
    value, pos = operand(items, pos)
    while pos < len(items) and items[pos] == word:
        other, pos = operand(items, pos + 1)
        if deciding in (value, other):
            value = deciding
        else:
            value = None if None in (value, other) else not deciding
    return value, pos


def _not(items: _Items, pos: int) -> tuple[bool | None, int]:
    if pos >= len(items):
        return None, len(items) + 1  # an operator with nothing after it: not read
    item = items[pos]
    if item == "not":
        value, pos = _not(items, pos + 1)
        return (None if value is None else not value), pos
    if item == "(":
        value, pos = _or(items, pos + 1)
        if pos >= len(items) or items[pos] != ")":
            return None, len(items) + 1
        return value, pos + 1
    if isinstance(item, str):  # `and`, `or`, `)` where an operand belongs
        return None, len(items) + 1
    return item, pos + 1


def ifthenelse(walker: Walker, text: str, m: re.Match[str]) -> int:
    """ifthen's `\\ifthenelse{test}{yes}{no}`."""
    args, pos = texscan.read_args(text, m.end(), "{")
    test = args[0] or ""
    return two_branches(walker, text, m.start(), pos, _test(walker, test), f"ifthenelse{{{test}}}")


_THEN_TERM = lazyre.pattern(
    r"\s*(?:\\(?P<not>not|NOT)\b|\\boolean\s*\{(?P<bool>[^{}]*)\}|\\isodd\s*\{(?P<odd>[^{}]*)\}"
    r"|\\equal\s*\{(?P<a>[^{}]*)\}\s*\{(?P<b>[^{}]*)\})"
)


def _test(walker: Walker, test: str) -> bool | None:
    """One ifthen test (with an optional leading `\\not`); None when not known."""
    negate = False
    pos = 0
    while True:
        match = _THEN_TERM.match(test, pos)
        if match is None or match.group("not") is None:
            break
        negate, pos = not negate, match.end()
    value: bool | None
    if match is not None and match.group("bool") is not None:
        value = walker.toggles.flags.get(match.group("bool").strip())
    elif match is not None and match.group("odd") is not None:
        number = numexpr.evaluate(match.group("odd"), walker, calc=False)
        value = None if number is None else number % 2 == 1
    elif match is not None and match.group("a") is not None:
        left, right = (walker.expand_text(match.group(k)) for k in ("a", "b"))
        value = None if left is None or right is None else left.strip() == right.strip()
    else:
        value, end = numexpr.read_relation(test, pos, walker)
        match = None
        if test[end:].strip():
            value = None  # `\\and`, `\\or`, `\\(`: not read
    if match is not None and test[match.end() :].strip():
        value = None
    return None if value is None else value != negate


def two_branches(
    walker: Walker, text: str, start: int, pos: int, value: bool | None, name: str
) -> int:
    """Read the `{yes}` or the `{no}` group that follow `pos`, in place; both when `value`
    is None (and then report the condition if results or labels were inside). Without two
    groups, read on as text."""
    if not walker.can_nest() or not text.startswith("{", texscan.skip_spaces(text, pos)):
        return pos
    yes = texscan.read_group_span(text, pos)
    no: tuple[int, int, int] | None
    if yes is not None and yes[1] == len(text):
        # never closed: TeX reads the rest of the file as this argument (and a walk that
        # went back to read it again at every such use would cost the square of its size)
        no = (len(text), len(text), len(text))
    else:
        no = texscan.read_group_span(text, yes[2]) if yes else None
    if yes is None or no is None:
        return pos
    events = walker.events
    for taken, span in ((True, yes), (False, no)):
        if value is None or value == taken:
            walker.scan_inside(text, span[0], span[1])
    if value is None:
        close(walker, Branch("unknown", walker.at(start), name, events))
    return no[2]


# -- xparse --------------------------------------------------------------------------------

XPARSE_TESTS = {
    "IfBooleanTF": ("boolean", True),
    "IfBooleanT": ("boolean", True),
    "IfBooleanF": ("boolean", True),
    "IfNoValueTF": ("novalue", True),
    "IfNoValueT": ("novalue", True),
    "IfNoValueF": ("novalue", True),
    "IfValueTF": ("novalue", False),
    "IfValueT": ("novalue", False),
    "IfValueF": ("novalue", False),
}


def xparse_test(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\IfBooleanTF{#1}{yes}{no}` on a star argument, `\\IfNoValueTF{#2}{yes}{no}` (and
    `\\IfValueTF`, and the `T` and `F` forms with one branch) on an optional one, as the
    expansion layer substitutes them (`\\BooleanTrue`, `-NoValue-`)."""
    word = m.group(1)
    kind, sense = XPARSE_TESTS[word]
    args, pos = texscan.read_args(text, m.end(), "{")
    tested = (args[0] or "").strip()
    value: bool | None
    if kind == "boolean":
        value = {"\\BooleanTrue": True, "\\BooleanFalse": False}.get(tested)
    else:
        value = (tested == macros.NO_VALUE) == sense
    if word.endswith("TF"):
        return two_branches(walker, text, m.start(), pos, value, word)
    if not walker.can_nest() or not text.startswith("{", texscan.skip_spaces(text, pos)):
        return pos
    group = texscan.read_group_span(text, pos)
    if group is None:
        return pos
    wanted = word.endswith("T")  # an unclosed group runs to the end, and so does the walk
    if value is None or value == wanted:
        walker.scan_inside(text, group[0], group[1])
    return group[2]

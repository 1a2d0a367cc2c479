"""Where the real Lean puts token boundaries: the oracle of the differential lexer tests.

Lean has no "print the tokens" switch, but three of its options together print every command
it parsed with every token's source position: `trace.Elab.command` prints each command's
syntax, `pp.raw` prints it as the raw tree of atoms and identifiers, and `pp.raw.showInfo`
adds each token's `SourceInfo` — `"lead":start:"atom":stop:"trail"` with UTF-8 byte positions
(docs/lean-tokens.md, "How the tests read Lean's tokens"). The first and the last token of a
command carry no positions there; the first one starts where the trace message says the command
starts, and the others follow from the previous token's end and its trailing whitespace.
Parse errors add the start of the token Lean refused (`unexpected token 'X'`, `expected token`),
and lexical errors (`missing exponent digits …`) where its tokenizer stopped.

Everything runs on `prelude` files (the oracle has no `Init`), so the token table is Lean's
built-in one. Lean's message log makes one run cost quadratic time in its commands, so texts are
checked in batches of a few hundred lines.
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from paperlint.lean.lexer import Kind, Token, lex

HEADER = (
    "prelude\n"
    "set_option trace.Elab.command true\n"
    "set_option pp.raw true\n"
    "set_option pp.raw.showInfo true\n"
)
RESYNC = "section"  # a command that always parses: a sequence's errors stop before the next
# Lean's tokenizer messages (`Lean/Parser/Basic.lean`): the text itself is refused there.
LEXICAL = (
    "missing exponent digits",
    "unexpected identifier after decimal point",
    "unexpected character; expected",
    "invalid escape sequence",
    "missing end of character literal",
    "unterminated",
    "tabs are not allowed",
    "isolated carriage returns",
    "unexpected additional newline in string gap",
    "invalid hexadecimal numeral",
)


@dataclass(frozen=True)
class Leaf:
    """One token of a parsed command: its text as Lean prints it and its character span."""

    kind: str  # "atom" or "ident"
    text: str
    start: int | None
    end: int | None


@dataclass(frozen=True)
class Message:
    offset: int  # character offset of the message's position in the file
    severity: str
    data: str


@dataclass
class Reading:
    """What one Lean run showed about one file."""

    commands: list[tuple[int, list[Leaf]]] = field(default_factory=list)  # (start, tokens)
    messages: list[Message] = field(default_factory=list)

    def lexical(self) -> list[Message]:
        return [m for m in self.messages if m.severity == "error" and m.data.startswith(LEXICAL)]


class Positions:
    """Character offsets of a text from Lean's UTF-8 byte positions and (line, column)."""

    def __init__(self, text: str) -> None:
        self.by_byte: dict[int, int] = {}
        position = 0
        for index, ch in enumerate(text):
            self.by_byte[position] = index
            position += len(ch.encode("utf-8"))
        self.by_byte[position] = len(text)
        self.line_starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]

    def of_byte(self, position: int) -> int:
        return self.by_byte[position]

    def of_line_col(self, line: int, col: int) -> int:
        return self.line_starts[line - 1] + col


def run_lean(lean: Path, text: str) -> list[dict[str, object]]:
    """`lean --json` on `text` (a `prelude` file) in a scratch folder: one dict per message."""
    with tempfile.TemporaryDirectory(prefix="lean-tokens-") as scratch:
        path = Path(scratch) / "T.lean"
        path.write_text(text, encoding="utf-8")
        done = subprocess.run(
            [str(lean), "-DmaxErrors=1000000", "--json", "T.lean"],
            capture_output=True, text=True, timeout=300, check=False, cwd=scratch,
        )  # fmt: skip
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def read(text: str, raw: list[dict[str, object]]) -> Reading:
    positions = Positions(text)
    reading = Reading()
    for message in raw:
        pos = message["pos"]
        assert isinstance(pos, dict)
        offset = positions.of_line_col(int(pos["line"]), int(pos["column"]))
        data = str(message["data"])
        if message.get("kind") == "trace" and data.startswith("[Elab.command]"):
            tree = data[data.index("(") :] if "(" in data else ""
            reading.commands.append((offset, _leaves(text, positions, offset, tree)))
        else:
            reading.messages.append(Message(offset, str(message["severity"]), data))
    return reading


_RAW = re.compile(
    r"""(?P<str>"(?:[^"\\]|\\.)*")
    |(?P<pos>:\d+:)
    |(?P<name>`\[anonymous\]|`(?:«[^»]*»|[^\s()\[\]:«"])+)
    |(?P<open>[(\[])|(?P<close>[)\]])
    |(?P<missing><missing>)
    |(?P<word>[^\s()\[\]"`:]+)
    |(?P<space>\s+)""",
    re.X,
)


def _unquote(literal: str) -> str:
    """A Lean string literal as `String.quote` prints it, decoded."""
    body = literal[1:-1]
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        code = body[i + 1]
        if code in "\"\\'":
            out.append(code)
            i += 2
        elif code in "ntr":
            out.append({"n": "\n", "t": "\t", "r": "\r"}[code])
            i += 2
        elif code == "x":
            out.append(chr(int(body[i + 2 : i + 4], 16)))
            i += 4
        elif code == "u" and body[i + 2] == "{":
            close = body.index("}", i)
            out.append(chr(int(body[i + 3 : close], 16)))
            i = close + 1
        elif code == "u":
            out.append(chr(int(body[i + 2 : i + 6], 16)))
            i += 6
        else:
            out.append(code)
            i += 2
    return "".join(out)


def _leaves(text: str, positions: Positions, start: int, tree: str) -> list[Leaf]:
    """The tokens of one `pp.raw.showInfo` tree, with character spans where they follow."""
    items = [(m.lastgroup, m.group()) for m in _RAW.finditer(tree) if m.lastgroup != "space"]
    raw: list[tuple[str, str, int | None, int | None, str]] = []  # kind, text, start, stop, trail
    i = 0
    while i < len(items):
        kind, value = items[i]
        if kind == "str" and i + 4 < len(items) and items[i + 1][0] == "pos":
            _, _, (vkind, val), (_, stop), (_, trail) = items[i : i + 5]
            atom = "ident" if vkind == "name" else "atom"
            shown = val[1:] if vkind == "name" else _unquote(val)
            begin = positions.of_byte(int(items[i + 1][1].strip(":")))
            end = positions.of_byte(int(stop.strip(":")))
            raw.append((atom, shown, begin, end, _unquote(trail)))
            i += 5
            continue
        if kind == "str":
            raw.append(("atom", _unquote(value), None, None, ""))
        elif kind == "name":
            raw.append(("ident", value[1:], None, None, ""))
        i += 1
    leaves: list[Leaf] = []
    cursor: int | None = start
    for atom, shown, begin, end, trail in raw:
        if not shown or (begin is not None and begin == end):
            continue  # an empty atom (`Command.eoi`) or hygiene information is no token
        known_trail: str | None = trail
        if begin is None:  # no positions printed: it follows the token before it
            begin, known_trail = cursor, None
            found = begin is not None and text.startswith(shown, begin)
            end = begin + len(shown) if found and begin is not None else None
        leaves.append(Leaf(atom, shown, begin, end))
        if end is None:
            cursor = None
        elif known_trail is not None:
            cursor = end + len(known_trail)
        else:
            cursor = _after_space(text, end)
    return leaves


def _after_space(text: str, i: int) -> int:
    """The next token's start after `i`, when Lean left a token's trailing space unprinted:
    spaces, line breaks and comments that are not doc comments (Lean's `whitespace`)."""
    while i < len(text):
        if text[i] in " \n":
            i += 1
        elif text.startswith("--", i):
            newline = text.find("\n", i)
            i = len(text) if newline < 0 else newline
        elif text.startswith("/-", i) and text[i + 2 : i + 3] not in ("-", "!"):
            depth, i = 1, i + 3
            while i < len(text) and depth:
                if text.startswith("-/", i):
                    depth, i = depth - 1, i + 2
                elif text.startswith("/-", i):
                    depth, i = depth + 1, i + 2
                else:
                    i += 1
        else:
            break
    return i


def run_batches(
    lean: Path, sequences: Sequence[str], *, per_batch: int = 250, workers: int = 2
) -> list[tuple[str, int, int, Reading]]:
    """Check many independent sequences: each gets its own lines, then a resynchronising
    command. Returns, per sequence, its batch text, its span there and Lean's reading."""
    batches = [sequences[i : i + per_batch] for i in range(0, len(sequences), per_batch)]

    def one(batch: Sequence[str]) -> list[tuple[str, int, int, Reading]]:
        parts = [HEADER]
        spans: list[tuple[int, int]] = []
        offset = len(HEADER)
        for sequence in batch:
            spans.append((offset, offset + len(sequence)))
            chunk = f"{sequence}\n{RESYNC}\n"
            parts.append(chunk)
            offset += len(chunk)
        text = "".join(parts)
        reading = read(text, run_lean(lean, text))
        return [(text, begin, end, reading) for begin, end in spans]

    with ThreadPoolExecutor(max_workers=workers) as pool:
        return [item for result in pool.map(one, batches) for item in result]


@dataclass
class Verdict:
    """How Python's tokens of one sequence compare with Lean's reading of it."""

    problems: list[str] = field(default_factory=list)
    confirmed: int = 0  # Python tokens whose start Lean showed
    tokens: int = 0  # Python tokens before the place where Lean stopped reading
    synchronized: bool = True  # False: Lean was still inside the sequence before this one


def compare(text: str, begin: int, end: int, reading: Reading, *, alone: bool = False) -> Verdict:
    """Python's tokens and lexical errors of `text[begin:end]` against Lean's reading of it.

    Python lexes the sequence alone (a sequence before it cannot leave Python inside a string).
    Lean reads it from the batch, so the command before the sequence must have been parsed
    where it stands, and the one after it too (else Lean read past the sequence's end). Then,
    up to the first place Lean stopped reading (a lexical error, or a parse error after which
    no command resumes at the next token): every token Lean printed is a Python token with the
    same start, and the same end where Lean showed it; every place Lean refused a token is a
    Python token boundary; each side's lexical errors are the other's; and every Python token
    start is one Lean showed (else the sequence tested nothing there). `alone`: the sequence
    is the only one of its file, and Lean's recovery may read past its end.
    """
    verdict = Verdict()
    starts = {start for start, _ in reading.commands}
    if begin != len(HEADER) and begin - len(RESYNC) - 1 not in starts:
        verdict.synchronized = False
        return verdict
    lexed = lex(text[begin:end])
    refused = {e.offset for e in lexed.errors}
    python = {
        t.offset + begin: t._replace(offset=t.offset + begin) for t in lexed.tokens if _compared(t)
    }
    ordered = sorted(python)
    stop = _stop(reading, begin, end, ordered, starts)
    if end + 1 not in starts and not alone:
        verdict.problems.append(f"{_where(text, end)}: Lean read on past the sequence's end")
    shown: set[int] = set()
    for start, leaves in reading.commands:
        if not begin <= start < end:
            continue
        for leaf in leaves:
            if leaf.start is None or not begin <= leaf.start < stop:
                continue
            if _joined(python, leaf):
                continue  # a doc comment or ``name: Lean splits what the lexer keeps whole
            shown.add(leaf.start)
            token = python.get(leaf.start)
            where = _where(text, leaf.start)
            if token is None:
                problem = f"Lean has {leaf.kind} {leaf.text!r} here, Python no token"
                verdict.problems.append(f"{where}: {problem}")
            elif leaf.end is not None and token.end != leaf.end and not _is_joined(token):
                lean_text = text[leaf.start : leaf.end]
                verdict.problems.append(f"{where}: Lean reads {lean_text!r}, Python {token.text!r}")
    for message in _parse_errors(reading, begin, stop + 1):
        if message.data.startswith(LEXICAL):
            continue
        # Lean reports the refused token at its start, or where the token before it ended.
        after = next((o for o in ordered if o >= message.offset), None)
        at_boundary = any(t.end == message.offset for t in python.values())
        if message.offset in python or at_boundary or message.offset - begin in refused:
            if after is not None:
                shown.add(after)
        else:
            problem = f"Lean: {message.data[:80]}; Python has no token boundary here"
            verdict.problems.append(f"{_where(text, message.offset)}: {problem}")
    # An error at the sequence's very end is Lean's at the newline after it (or later).
    lean_lexical = {
        min(m.offset, end): m.data for m in reading.lexical() if begin <= m.offset <= stop + 1
    }
    lean_refusals = {min(m.offset, end) for m in _parse_errors(reading, begin, stop + 2)}
    python_lexical = {e.offset + begin: e.message for e in lexed.errors if e.offset + begin <= stop}
    for offset in sorted(set(lean_lexical) - set(python_lexical)):
        where = _where(text, offset)
        verdict.problems.append(f"{where}: Lean refuses ({lean_lexical[offset]}), Python not")
    for offset in sorted(set(python_lexical) - lean_refusals):
        where = _where(text, offset)
        verdict.problems.append(f"{where}: Python refuses ({python_lexical[offset]}), Lean not")
    before_stop = [o for o in ordered if o < stop]
    if stop in lean_lexical:  # the token Lean's tokenizer refused is confirmed by that refusal
        shown.update(o for o in before_stop if python[o].end >= stop)
    verdict.tokens = len(before_stop)
    verdict.confirmed = len(set(before_stop) & shown)
    return verdict


def _parse_errors(reading: Reading, begin: int, end: int) -> list[Message]:
    return [
        m
        for m in reading.messages
        if m.severity == "error" and begin <= m.offset < end and m.data[:1].islower()
    ]


def _stop(reading: Reading, begin: int, end: int, ordered: list[int], starts: set[int]) -> int:
    """Where Lean stopped reading the sequence: its first lexical error, or its first parse
    error after which no command starts at the next token (Lean skipped text there)."""
    for message in _parse_errors(reading, begin, end + 1):
        if message.data.startswith(LEXICAL):
            return message.offset
        after = next((o for o in ordered if o >= message.offset), None)
        if after is None or after not in starts:
            return message.offset
    return end


def _compared(token: Token) -> bool:
    """Python's tokens Lean has too: code, literals and doc comments (tokens to Lean)."""
    return token.kind is not Kind.COMMENT or _is_doc(token)


def _is_doc(token: Token) -> bool:
    return token.kind is Kind.COMMENT and token.text.startswith(("/--", "/-!"))


def _is_joined(token: Token) -> bool:
    """Tokens the lexer keeps whole and Lean splits (docs/lean-tokens.md): a doc comment
    (`/--` and its body) and a double-quoted name (`` ` ``, `` ` `` and the identifier)."""
    return _is_doc(token) or (token.kind is Kind.NAME and token.text.startswith("``"))


def _joined(python: dict[int, Token], leaf: Leaf) -> bool:
    assert leaf.start is not None
    return any(_is_joined(t) and t.offset < leaf.start < t.end for t in python.values())


def _where(text: str, offset: int) -> str:
    line = text.count("\n", 0, offset) + 1
    start = text.rfind("\n", 0, offset) + 1
    stop = text.find("\n", offset)
    source = text[start : stop if stop >= 0 else len(text)]
    return f"line {line} col {offset - start} in {source!r}"

"""Split Lean source into commands and read each declaration's statement and body.

Fingerprints, the skeleton check and the unused-hypothesis lint all need the same split: where
a command starts, which keyword it has, its name, and where its statement stops (the first
top-level `:=`, `where` or equation `|`, docs/prior-art.md §2.4). Doing it once here keeps the three
in agreement. It is a token-level reading, not a parser: it relies on command keywords being
reserved words in Lean, and on `open`/`set_option` commands starting a line.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from paperlint.lean.lexer import Kind, Token, ident_parts, tokenize

DECLARATION_KEYWORDS = frozenset(
    {
        "theorem",
        "lemma",
        "def",
        "abbrev",
        "instance",
        "example",
        "structure",
        "class",
        "inductive",
        "coinductive",
        "axiom",
        "opaque",
        "irreducible_def",
    }
)
THEOREM_KEYWORDS = frozenset({"theorem", "lemma"})  # a named, proved declaration
PROOF_KEYWORDS = THEOREM_KEYWORDS | {"example"}
MODIFIERS = frozenset(
    {"private", "protected", "noncomputable", "partial", "unsafe", "nonrec", "local", "scoped"}
)
# Commands that may start anywhere on a line (their keywords are reserved words).
COMMAND_KEYWORDS = DECLARATION_KEYWORDS | frozenset(
    {
        "namespace",
        "section",
        "end",
        "variable",
        "universe",
        "import",
        "mutual",
        "prelude",
        "macro",
        "macro_rules",
        "syntax",
        "elab",
        "elab_rules",
        "notation",
        "notation3",
        "infix",
        "infixl",
        "infixr",
        "prefix",
        "postfix",
        "initialize",
        "builtin_initialize",
        "run_cmd",
        "run_elab",
        "run_meta",
        "attribute",
        "deriving",
        "export",
        "omit",
        "include",
        "declare_syntax_cat",
        "alias",
    }
)
# Commands that are also tactics or terms: a command only at the start of a line (column 0).
_LINE_START_KEYWORDS = frozenset({"open", "set_option"})
_OPENERS = {"(": ")", "[": "]", "{": "}", "⦃": "⦄", "⟨": "⟩", "@[": "]"}
_CLOSERS = frozenset(_OPENERS.values())
_SCOPED_PREFIXES = frozenset({"open", "set_option", "variable", "omit", "include"})


@dataclass(frozen=True)
class Command:
    """One top-level command: its tokens (comments left out) and where it sits in the text."""

    tokens: tuple[Token, ...]
    keyword: str  # the first token after attributes and modifiers: `theorem`, `open`, `#eval`
    keyword_index: int  # index of that token in `tokens`
    modifiers: tuple[str, ...]

    @property
    def start(self) -> int:
        return self.tokens[0].offset

    @property
    def end(self) -> int:
        return self.tokens[-1].end

    @property
    def is_scoped_prefix(self) -> bool:
        """`open Foo in`, `set_option x y in`: a prefix of the command that follows."""
        return self.keyword in _SCOPED_PREFIXES and self.tokens[-1].text == "in"


@dataclass(frozen=True)
class Declaration:
    """A declaration command split into statement and body."""

    command: Command
    name: str | None  # fully qualified; None for `example` and unnamed instances
    statement: tuple[Token, ...]  # from the keyword to the top-level `:=`/`where`/`|`
    body: tuple[Token, ...]  # after the terminator (empty for `axiom` or a bare `structure`)
    terminator: str | None  # ":=", "where", "|" or None
    prefixes: tuple[Command, ...] = field(default=())  # `open … in` commands before it

    @property
    def kind(self) -> str:
        return self.command.keyword

    @property
    def keyword_token(self) -> Token:
        return self.command.tokens[self.command.keyword_index]


def split_commands(text: str) -> list[Command]:
    """The top-level commands of `text`, in order."""
    tokens = [t for t in tokenize(text) if t.kind is not Kind.COMMENT]
    groups: list[list[Token]] = []
    depth = 0
    in_prefix = False  # only attributes and modifiers seen so far in the current command
    for index, token in enumerate(tokens):
        previous = tokens[index - 1] if index else None
        if depth == 0 and _starts_command(token, previous, in_prefix):
            if not in_prefix:
                groups.append([])
            in_prefix = token.text == "@[" or token.text in MODIFIERS
        elif depth == 0 and in_prefix and token.text not in MODIFIERS:
            in_prefix = False
        if not groups:
            groups.append([])
        groups[-1].append(token)
        depth = _new_depth(depth, token)
    return [_make_command(group) for group in groups if group]


def _starts_command(token: Token, previous: Token | None, in_prefix: bool) -> bool:
    if token.kind is Kind.HASH_COMMAND:
        return True
    if token.kind is Kind.SYMBOL:
        return token.text == "@["
    if token.kind is not Kind.IDENT:
        return False
    if previous is not None and previous.text in {"class", "deriving", "open"}:
        return False  # `class inductive`, `deriving instance`, `open scoped`
    if token.text in COMMAND_KEYWORDS or token.text in MODIFIERS:
        return True
    return token.text in _LINE_START_KEYWORDS and (in_prefix or _starts_line(token, previous))


def _starts_line(token: Token, previous: Token | None) -> bool:
    return token.col == 0 and (previous is None or previous.line < token.line)


def _new_depth(depth: int, token: Token) -> int:
    if token.kind is not Kind.SYMBOL:
        return depth
    if token.text in _OPENERS:
        return depth + 1
    if token.text in _CLOSERS:
        return max(depth - 1, 0)
    return depth


def _make_command(tokens: list[Token]) -> Command:
    index = 0
    modifiers: list[str] = []
    while index < len(tokens):
        text = tokens[index].text
        if text == "@[":
            index = _skip_group(tokens, index)
        elif text in MODIFIERS:
            modifiers.append(text)
            index += 1
        else:
            break
    index = min(index, len(tokens) - 1)
    return Command(tuple(tokens), tokens[index].text, index, tuple(modifiers))


def _skip_group(tokens: list[Token] | tuple[Token, ...], index: int) -> int:
    """Index just past the bracket group that opens at `index`."""
    depth = 0
    for j in range(index, len(tokens)):
        depth = _new_depth(depth, tokens[j])
        if depth == 0:
            return j + 1
    return len(tokens)


def declarations(text: str) -> list[Declaration]:
    """Every declaration of `text`, with fully qualified names and its `… in` prefixes."""
    result: list[Declaration] = []
    scopes: list[list[str]] = []
    pending: list[Command] = []
    for command in split_commands(text):
        if command.is_scoped_prefix:
            pending.append(command)
            continue
        if command.keyword in DECLARATION_KEYWORDS:
            result.append(_make_declaration(command, _namespace(scopes), tuple(pending)))
        else:
            _track_scope(command, scopes)
        pending = []
    return result


def _namespace(scopes: list[list[str]]) -> list[str]:
    return [part for scope in scopes for part in scope]


def _track_scope(command: Command, scopes: list[list[str]]) -> None:
    after = command.tokens[command.keyword_index + 1 :]
    name = after[0].text if after and after[0].kind is Kind.IDENT else ""
    if command.keyword == "namespace":
        scopes.append(ident_parts(name))
    elif command.keyword in {"section", "mutual"}:
        scopes.append([])
    elif command.keyword == "end":
        _close_scopes(scopes, len(ident_parts(name)) if name else 0)


def _close_scopes(scopes: list[list[str]], components: int) -> None:
    """`end` closes one scope; `end A.B` closes scopes until two name components are closed."""
    if scopes:
        components -= max(len(scopes.pop()), 1)
    while components > 0 and scopes:
        components -= max(len(scopes.pop()), 1)


def _make_declaration(
    command: Command, namespace: list[str], prefixes: tuple[Command, ...]
) -> Declaration:
    tokens = command.tokens
    start = command.keyword_index
    cut = _statement_end(tokens, start)
    terminator = tokens[cut].text if cut < len(tokens) else None
    name = _declared_name(tokens, start)
    return Declaration(
        command=command,
        name=_qualify(name, namespace),
        statement=tokens[start:cut],
        body=tokens[cut + 1 :] if terminator else (),
        terminator=terminator,
        prefixes=prefixes,
    )


def _statement_end(tokens: tuple[Token, ...], start: int) -> int:
    """Index of the top-level `:=`, `where` or equation `|` that ends the statement."""
    depth = 0
    for j in range(start, len(tokens)):
        token = tokens[j]
        if depth == 0 and (
            token.text in {":=", "where", "deriving"} or _is_equation_bar(tokens, j)
        ):
            return j
        depth = _new_depth(depth, token)
    return len(tokens)


def _is_equation_bar(tokens: tuple[Token, ...], j: int) -> bool:
    """A `|` that starts a line and whose line has a top-level `=>`: a pattern-matching arm.

    A `|` inside the statement, as in `|x| ≤ 1`, is an absolute value and does not count.
    """
    token = tokens[j]
    if token.text != "|" or (j > 0 and tokens[j - 1].line == token.line):
        return False
    depth = 0
    for later in tokens[j + 1 :]:
        if later.line != token.line:
            return False
        if depth == 0 and later.text == "=>":
            return True
        depth = _new_depth(depth, later)
    return False


def _declared_name(tokens: tuple[Token, ...], start: int) -> str | None:
    keyword = tokens[start].text
    if keyword == "example":
        return None
    index = start + 1
    if keyword == "instance" and index < len(tokens) and tokens[index].text == "(":
        index = _skip_group(tokens, index)  # `instance (priority := 100) foo : …`
    if index < len(tokens) and tokens[index].kind is Kind.IDENT:
        return tokens[index].text
    return None


def _qualify(name: str | None, namespace: list[str]) -> str | None:
    if name is None:
        return None
    if name.startswith("_root_."):
        return name.removeprefix("_root_.")
    return ".".join([*namespace, name])


def normalized_text(tokens: tuple[Token, ...] | list[Token]) -> str:
    """Tokens joined by single spaces where the source had whitespace or a comment.

    Whitespace runs collapse to one space and comments vanish, so reformatting is not a change;
    everything else, including the spelling of arrows and binders, is kept (docs/prior-art.md §4.3).
    """
    parts: list[str] = []
    for previous, token in zip((None, *tokens), tokens, strict=False):
        if previous is not None and previous.end < token.offset:
            parts.append(" ")
        parts.append(token.text)
    return "".join(parts)


def top_level_index(tokens: tuple[Token, ...], text: str, start: int = 0) -> int | None:
    """Index of the first token spelled `text` outside every bracket, from `start` on."""
    depth = 0
    for j in range(start, len(tokens)):
        if depth == 0 and tokens[j].text == text:
            return j
        depth = _new_depth(depth, tokens[j])
    return None

"""Find a declaration's statement in a Lean file, without Lean.

The report shows the statement that was proved next to the paper's, so a reader can compare
them. We read the file the evidence names and cut the declaration named `evidence.lean_name`
from its keyword up to the `:=` that starts its body (reports never run Lean, docs/design.md §2).
"""

from __future__ import annotations

import re

_DECL = re.compile(
    r"^[ \t]*(?:@\[[^\]]*\][ \t\n]*)?(?:(?:private|protected|noncomputable|nonrec)\s+)*"
    r"(theorem|lemma|def|abbrev|structure|class|instance|example)\s+([^\s:({\[]+)",
    re.M,
)
_NAMESPACE = re.compile(r"^[ \t]*(namespace|section|end)\b[ \t]*([^\s]*)", re.M)
_OPEN = "([{⦃⟨"
_CLOSE = ")]}⦄⟩"
MAX_CHARS = 4000  # a statement longer than this is cut, with a note, to keep the report readable


def strip_comments(text: str) -> str:
    """Blank out `--` and (nested) `/- -/` comments, keeping offsets and line breaks."""
    out = list(text)
    i, depth, n = 0, 0, len(text)
    while i < n:
        two = text[i : i + 2]
        if two == "/-":
            depth += 1
            out[i] = out[i + 1] = " "
            i += 2
        elif depth and two == "-/":
            depth -= 1
            out[i] = out[i + 1] = " "
            i += 2
        elif depth:
            out[i] = out[i] if text[i] == "\n" else " "
            i += 1
        elif two == "--":
            end = text.find("\n", i)
            end = n if end < 0 else end
            out[i:end] = " " * (end - i)
            i = end
        else:
            i += 1
    return "".join(out)


def _namespace_at(text: str, offset: int) -> list[str]:
    """The namespace stack in force at `offset` (sections push nothing that names decls)."""
    stack: list[tuple[str, str]] = []
    for match in _NAMESPACE.finditer(text, 0, offset):
        keyword, name = match.group(1), match.group(2)
        if keyword == "end":
            if stack:
                stack.pop()
        else:
            stack.append((keyword, name))
    return [name for keyword, name in stack if keyword == "namespace" and name]


def _statement_end(text: str, start: int, *, is_theorem: bool) -> int:
    """Offset of the `:=` (or `where`/`|` for definitions) that ends the signature."""
    depth = 0
    i = start
    while i < len(text):
        char = text[i]
        if char in _OPEN:
            depth += 1
        elif char in _CLOSE:
            depth = max(0, depth - 1)
        elif depth == 0 and _ends_signature(text, i, is_theorem=is_theorem):
            return i
        i += 1
    return len(text)


def _ends_signature(text: str, i: int, *, is_theorem: bool) -> bool:
    if text.startswith(":=", i):
        return True
    # a definition's body may also start with `where` or pattern-matching `|` arms
    return not is_theorem and re.match(r"\s(where|\|)\s", text[i : i + 7]) is not None


_NEXT_COMMAND = re.compile(
    r"^(?:theorem|lemma|def|abbrev|structure|class|instance|example|namespace|section|end|"
    r"open|variable|universe|set_option|noncomputable|private|protected|attribute|@\[|#|/-)",
    re.M,
)
BODY_KINDS = ("def", "abbrev", "structure", "class", "instance")


def find_declaration(source: str, lean_name: str, *, with_body: bool = False) -> str | None:
    """The signature of the declaration `lean_name` in `source`, or None when absent.

    With `with_body`, a definition (`def`, `abbrev`, `structure`, …) comes whole, body
    included: what a definition means is its body, and the reader is asked to compare it.
    """
    text = strip_comments(source)
    short = lean_name.rsplit(".", 1)[-1]
    fallback: str | None = None
    for match in _DECL.finditer(text):
        name = match.group(2)
        full = ".".join([*_namespace_at(text, match.start()), name])
        if full != lean_name and name != lean_name and name.rsplit(".", 1)[-1] != short:
            continue
        is_theorem = match.group(1) in ("theorem", "lemma")
        if with_body and match.group(1) in BODY_KINDS:
            following = _NEXT_COMMAND.search(text, text.find("\n", match.end()) + 1 or len(text))
            end = following.start() if following and following.start() > match.end() else len(text)
        else:
            end = _statement_end(text, match.end(), is_theorem=is_theorem)
        statement = text[match.start() : end]
        statement = _tidy(statement)
        if full == lean_name or name == lean_name:
            return statement
        fallback = fallback or statement
    return fallback


def _tidy(statement: str) -> str:
    lines = [line.rstrip() for line in statement.strip().splitlines()]
    text = "\n".join(line for line in lines if line.strip())
    if len(text) > MAX_CHARS:
        text = text[:MAX_CHARS] + "\n… (cut; read the file for the rest)"
    return text


def first_declaration(source: str) -> str | None:
    """The signature of the file's first theorem: a counterexample file states one claim."""
    text = strip_comments(source)
    for match in _DECL.finditer(text):
        if match.group(1) in ("theorem", "lemma"):
            return _tidy(text[match.start() : _statement_end(text, match.end(), is_theorem=True)])
    return None


def declared_names(source: str) -> set[str]:
    """Every name `source` declares, with the namespaces it is declared in."""
    text = strip_comments(source)
    return {
        ".".join([*_namespace_at(text, match.start()), match.group(2)])
        for match in _DECL.finditer(text)
    }

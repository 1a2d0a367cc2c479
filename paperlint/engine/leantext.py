"""Composing the Lean text a check elaborates: header, contexts, modules, refutations.

Everything here is pure string work over declarations that the drafter and prover wrote and
the gate approved. The engine, not a model, writes the statement of a counterexample: it is
the negation of the gated statement, so "refutes the gated statement" holds by construction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from paperlint.lean.verifier import LeanContext

_OPEN = "([{⟨⦃"
_CLOSE = ")]}⟩⦄"


def header(*, max_heartbeats: int) -> str:
    return "\n".join(
        (
            "import Mathlib",
            f"set_option maxHeartbeats {max_heartbeats}",
            "set_option autoImplicit false",
            "open Real Finset BigOperators",
        )
    )


@dataclass(frozen=True)
class Declaration:
    keyword: str
    name: str
    binders: str  # the bracketed binders between the name and the type, as written
    type: str  # the statement's type, after the top-level `:`
    body: str  # after the top-level `:=`, or "" when absent


def _top_level_positions(text: str) -> list[tuple[int, str]]:
    """Positions of top-level `:` and `:=` (outside brackets, comments and strings)."""
    found: list[tuple[int, str]] = []
    depth = 0
    i = 0
    while i < len(text):
        ch = text[i]
        if text.startswith("--", i):
            i = text.find("\n", i)
            i = len(text) if i < 0 else i
            continue
        if text.startswith("/-", i):
            end = text.find("-/", i + 2)
            i = len(text) if end < 0 else end + 2
            continue
        if ch == '"':
            end = i + 1
            while end < len(text) and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            i = end + 1
            continue
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth -= 1
        elif depth == 0 and text.startswith(":=", i):
            found.append((i, ":="))
            i += 2
            continue
        elif depth == 0 and ch == ":":
            found.append((i, ":"))
        i += 1
    return found


_HEAD = re.compile(
    r"^\s*(?:@\[[^\]]*\]\s*)*(?:(?:private|protected|noncomputable)\s+)*"
    r"(?P<kw>theorem|lemma|def|abbrev|instance|example)\s+(?P<name>[^\s(:{\[⦃]+)?"
)


def parse_declaration(text: str) -> Declaration | None:
    """Split one declaration into keyword, name, binders, type and body; None if unparsable."""
    head = _HEAD.match(text)
    if head is None:
        return None
    rest_start = head.end()
    marks = _top_level_positions(text[rest_start:])
    colon = next((pos for pos, kind in marks if kind == ":"), None)
    assign = next((pos for pos, kind in marks if kind == ":="), None)
    if colon is None or (assign is not None and assign < colon):
        return None
    type_end = assign if assign is not None else len(text) - rest_start
    return Declaration(
        keyword=head.group("kw"),
        name=head.group("name") or "",
        binders=text[rest_start : rest_start + colon].strip(),
        type=text[rest_start + colon + 1 : rest_start + type_end].strip(),
        body=text[rest_start + type_end + 2 :].strip() if assign is not None else "",
    )


def as_proposition(decl: Declaration) -> str:
    """The statement as one closed proposition: `∀ binders, type`."""
    if not decl.binders:
        return decl.type
    return f"∀ {decl.binders}, {decl.type}"


def refutation_statement(gated: str, name: str) -> str | None:
    """`theorem NAME : ¬ (∀ binders, type)` for the gated statement, or None if unparsable."""
    decl = parse_declaration(gated)
    if decl is None:
        return None
    return f"theorem {name} : ¬ ({as_proposition(decl)})"


def with_body(statement: str, body: str) -> str:
    body = body.strip()
    joiner = " := " if not body.startswith(":=") else " "
    return f"{statement}{joiner}{body}"


def statement_text_exact(declaration: str) -> str:
    """The declaration's own text up to its top-level `:=`, unnormalised."""
    head = _HEAD.match(declaration)
    if head is None:
        return declaration.strip()
    marks = _top_level_positions(declaration[head.end() :])
    assign = next((pos for pos, kind in marks if kind == ":="), None)
    if assign is None:
        return declaration.rstrip()
    return declaration[: head.end() + assign].rstrip()


def context_for(header_text: str, declarations: list[str]) -> LeanContext:
    return LeanContext(header=header_text, accepted=tuple(d.strip() for d in declarations))


def module_text(context: LeanContext, target: str) -> str:
    """A self-contained file: the header, every declaration the target needs, the target."""
    return context.text() + "\n" + target.strip() + "\n"

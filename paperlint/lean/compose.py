"""Composing the Lean text a check elaborates: header, contexts, modules, refutations.

Everything here is pure string work over declarations that the drafter and prover wrote and
the gate approved; the engine and the validator both build their Lean from it, so what the
validator re-checks is exactly what the engine checked. The engine, not a model, writes the
statement of a counterexample: it is the negation of the gated statement, so "refutes the
gated statement" holds by construction.

Declarations are read by `paperlint.lean.declarations` (built on the lexer), the one parser:
nested block comments, string and character literals such as `')'` never move a split.
"""

from __future__ import annotations

from dataclasses import dataclass

from paperlint.lean import fingerprint as fp
from paperlint.lean.declarations import (
    THEOREM_KEYWORDS,
    declarations,
    split_commands,
    top_level_index,
)
from paperlint.lean.lexer import Kind
from paperlint.lean.verifier import LeanContext

# The declarations a drafted statement may be: the ones with a statement and a body.
_STATEMENT_KEYWORDS = frozenset({"theorem", "lemma", "def", "abbrev", "instance", "example"})


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
class DeclarationParts:
    """One declaration split where a reader splits it (texts as written, comments kept)."""

    keyword: str
    name: str  # as written, not namespace-qualified; "" for `example`
    binders: str  # the bracketed binders between the name and the type
    type: str  # the statement's type, after the top-level `:`
    body: str  # after the top-level `:=`, or "" when absent


def parse_declaration(text: str) -> DeclarationParts | None:
    """Split the declaration `text` starts with; None if it does not start with one."""
    commands = split_commands(text)
    found = declarations(text)
    if not commands or not found or found[0].command != commands[0]:
        return None
    decl = found[0]
    if decl.kind not in _STATEMENT_KEYWORDS:
        return None
    tokens = decl.statement
    named = decl.kind != "example" and len(tokens) > 1 and tokens[1].kind is Kind.IDENT
    after = 2 if named else 1  # the first token after the keyword and the name
    colon = top_level_index(tokens, ":", after)
    if colon is None:
        return None
    if decl.terminator == ":=":
        assign = decl.command.tokens[decl.command.keyword_index + len(tokens)]
        type_end, body = assign.offset, text[assign.end : decl.command.end].strip()
    else:
        type_end, body = decl.command.end, ""
    return DeclarationParts(
        keyword=decl.kind,
        name=tokens[1].text if named else "",
        binders=text[tokens[after - 1].end : tokens[colon].offset].strip(),
        type=text[tokens[colon].end : type_end].strip(),
        body=body,
    )


def as_proposition(decl: DeclarationParts) -> str:
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
    found = declarations(declaration)
    if not found:
        return declaration.strip()
    decl = found[0]
    if decl.terminator != ":=":
        return declaration.rstrip()
    assign = decl.command.tokens[decl.command.keyword_index + len(decl.statement)]
    return declaration[: assign.offset].rstrip()


def fingerprint(declaration: str) -> str:
    """Fingerprint of the (first) declaration's statement, everything before its `:=`.

    The normalisation (comments out, whitespace collapsed) is the mechanical audit's, in
    `paperlint.lean.fingerprint`; the gate records this value and the audit and validator
    recompute it."""
    found = declarations(declaration)
    if found:
        return fp.fingerprint(fp.statement_text(found[0]))
    return fp.fingerprint(statement_text_exact(declaration))


def fingerprints(text: str, name: str) -> list[str]:
    """The statement fingerprint of every declaration named `name` in `text`."""
    return [fp.fingerprint(fp.statement_text(d)) for d in declarations(text) if d.name == name]


def context_for(header_text: str, declarations_: list[str]) -> LeanContext:
    return LeanContext(header=header_text, accepted=tuple(d.strip() for d in declarations_))


def module_text(context: LeanContext, target: str) -> str:
    """A self-contained file: the header, every declaration the target needs, the target."""
    return context.text() + "\n" + target.strip() + "\n"


# --- reconnection (issue #14) --------------------------------------------------------------------

_BRACKETS = {"(": ")", "{": "}", "[": "]", "⦃": "⦄"}


def binder_groups(binders: str) -> list[tuple[str, str]]:
    """The top-level bracketed groups of a binder text, as (opening bracket, inner text)."""
    groups: list[tuple[str, str]] = []
    depth, start, opener = 0, 0, ""
    for index, ch in enumerate(binders):
        if depth == 0 and ch in _BRACKETS:
            start, opener = index, ch
        if ch in _BRACKETS:
            depth += 1
        elif ch in _BRACKETS.values():
            depth -= 1
            if depth == 0 and opener:
                groups.append((opener, binders[start + 1 : index]))
    return groups


@dataclass(frozen=True)
class Composed:
    """A composed declaration, or why there is none."""

    text: str | None
    why: str = ""


def discharge_declaration(gated: str, *, name: str, new_name: str, by: dict[str, str]) -> Composed:
    """`theorem NEW_NAME <binders without the discharged> : <type> := NAME (b := b) … (h := T)`.

    The gated statement with each hypothesis `h` of `by` removed, proved by applying the
    conditional theorem `NAME` to the predecessor's theorem `by[h]`, every other binder passed
    by name (an anonymous instance binder is found by instance search). Lean decides whether
    `by[h]` has the clause's type; nothing here does."""
    decl = parse_declaration(gated)
    if decl is None or decl.keyword not in THEOREM_KEYWORDS:
        return Composed(None, "the gated statement is not a theorem this step can read")
    kept: list[str] = []
    args: list[str] = []
    found: set[str] = set()
    for opener, inner in binder_groups(decl.binders):
        colon = _top_colon(inner)
        names = inner[:colon].split() if colon is not None else []
        keep = [n for n in names if n not in by]
        found |= set(names) - set(keep)
        if names and not keep:
            continue
        group = f"{' '.join(keep)} :{inner[colon + 1 :]}" if colon is not None else inner
        kept.append(f"{opener}{group}{_BRACKETS[opener]}")
        args += [f"({n} := {n})" for n in keep if n != "_"]
    missing = sorted(set(by) - found)
    if missing:
        return Composed(None, f"not a named hypothesis of `{name}`: {', '.join(missing)}")
    args += [f"({h} := {by[h]})" for h in sorted(by)]
    binders = (" " + " ".join(kept)) if kept else ""
    return Composed(f"theorem {new_name}{binders} : {decl.type} :=\n  {name} {' '.join(args)}")


def _top_colon(inner: str) -> int | None:
    depth = 0
    for index, ch in enumerate(inner):
        if ch in _BRACKETS:
            depth += 1
        elif ch in _BRACKETS.values():
            depth -= 1
        elif ch == ":" and depth == 0 and inner[index + 1 : index + 2] != "=":
            return index
    return None

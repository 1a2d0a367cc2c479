"""Junk-value assignments: where a mistranslated statement usually breaks.

Mathlib totalises partial operations: `x / 0 = 0`, `(0 : ℕ) - 1 = 0`, a sum over `range 0` is
`0`, `sSup ∅ = 0` in ℝ. A statement drafted in the wrong type or without a side condition is
often false exactly there, while the paper's statement is not. This module reads the
statement's tokens and proposes assignments of its variables that hit those values; the probe
then asks Lean to refute the statement at each. The reading is a heuristic over tokens: a
wrong guess costs one Lean call that fails, never a wrong verdict.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from paperlint.faithful.statement import BinderRole, Statement, is_name
from paperlint.lean.lexer import Kind, Token, ident_parts

NUMERIC = frozenset({"ℕ", "ℤ", "ℚ", "ℝ", "Nat", "Int", "Rat", "Real"})
NATURAL = frozenset({"ℕ", "Nat"})
_COLLECTIONS = frozenset({"Set", "Finset"})
_EXTREMA = frozenset({"sSup", "sInf", "⨆", "⨅", "iSup", "iInf"})
_EMPTY_AFTER = _EXTREMA | {"∈", "in"}  # `∑ i ∈ s`, `sSup s`: the empty collection
MAX_ASSIGNMENTS = 4

Assignment = dict[str, str]


def variables_by_type(statement: Statement) -> dict[str, str]:
    """Variable name → the head of its type (`ℕ`, `Finset`, …), for single-name types."""
    found: dict[str, str] = {}
    for group in statement.groups:
        if group.role is not BinderRole.VARIABLE or not group.type_tokens:
            continue
        head = group.type_tokens[0].text
        if (head in NUMERIC and len(group.type_tokens) == 1) or head in _COLLECTIONS:
            for name in group.name_texts():
                found[name] = head
    return found


def junk_assignments(statement: Statement) -> list[Assignment]:
    """Assignments that hit a junk value, each completed with 0 and with 1 elsewhere."""
    types = variables_by_type(statement)
    numeric = [n for n, t in types.items() if t in NUMERIC]
    tokens = _all_tokens(statement)
    out: list[Assignment] = []
    for core in _cores(tokens, types):
        for filler in ("0", "1"):
            full = {name: core.get(name, filler) for name in numeric}
            full.update({k: v for k, v in core.items() if k not in full})
            if full not in out:
                out.append(full)
    return out[:MAX_ASSIGNMENTS]


def _all_tokens(statement: Statement) -> list[Token]:
    tokens = [t for g in statement.groups for t in g.type_tokens]
    return [*tokens, *statement.conclusion_tokens]


def _cores(tokens: Sequence[Token], types: dict[str, str]) -> Iterator[Assignment]:
    """The junk-hitting part of each assignment, one per trigger in the text."""
    for index, token in enumerate(tokens):
        before = tokens[index - 1] if index else None
        after = tokens[index + 1] if index + 1 < len(tokens) else None
        if token.text == "/" and (name := _variable(after, types, NUMERIC)):
            yield {name: "0"}
        elif token.text == "-" and before is not None and after is not None:
            yield from _truncation(before, after, types)
        elif _last(token) == "range" and (name := _variable(after, types, NUMERIC)):
            yield {name: "0"}
        elif token.text in _EMPTY_AFTER and (name := _variable(after, types, _COLLECTIONS)):
            yield {name: "∅"}


def _last(token: Token) -> str:
    return ident_parts(token.text)[-1] if token.kind is Kind.IDENT else token.text


def _truncation(before: Token, after: Token, types: dict[str, str]) -> Iterator[Assignment]:
    """`a - b` in ℕ with `a < b` truncates to 0."""
    left = _variable(before, types, NATURAL)
    right = _variable(after, types, NATURAL)
    if left and right:
        yield {left: "0", right: "1"}
    elif left and after.kind is Kind.NUMBER and after.text not in {"0"}:
        yield {left: "0"}
    elif right and before.kind is Kind.NUMBER and before.text == "0":
        yield {right: "1"}


def _variable(token: Token | None, types: dict[str, str], wanted: frozenset[str]) -> str | None:
    if token is None or token.kind is not Kind.IDENT:
        return None
    for name, head in types.items():
        if head in wanted and is_name(token, name) and token.text == name:
            return name
    return None

"""Statement fingerprints: the gate approves a statement, and the verdict must be about it.

A verdict carries the fingerprint of the statement the gate passed; the final Lean file must
still have that fingerprint (docs/design.md §5), so a prover cannot weaken a claim after
review. The normalisation is deliberately conservative (docs/prior-art.md §4.3): comments are
dropped and whitespace runs collapse to one space, nothing else. `→` and `->` stay different, so
a harmless respelling counts as a change and goes back to the gate; the opposite mistake would
let a claim drift.

Each fingerprint covers the declaration from its keyword to the top-level `:=`/`where`/`|`,
plus any `open … in` / `set_option … in` prefixes, because those change what names mean.
"""

from __future__ import annotations

import hashlib

from paperlint.lean.declarations import Declaration, declarations, normalized_text
from paperlint.lean.lexer import Kind, tokenize

_ELABORATED_SEPARATOR = "\n-- elaborated type --\n"


def normalize_statement(text: str) -> str:
    """`text` without comments, whitespace runs collapsed to one space."""
    tokens = [t for t in tokenize(text) if t.kind is not Kind.COMMENT]
    return normalized_text(tokens)


def fingerprint(statement_text: str, elaborated_type: str | None = None) -> str:
    """`sha256:<hex>` of the normalised statement, and of Lean's elaborated type when known.

    With Lean at hand, pass the type Lean elaborated (`#check @name` output): then an
    `open`, an instance or an import that changes what the same text means changes the print.
    """
    text = normalize_statement(statement_text)
    if elaborated_type is not None:
        text += _ELABORATED_SEPARATOR + " ".join(elaborated_type.split())
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def statement_text(declaration: Declaration) -> str:
    """The normalised statement of `declaration`, `… in` prefixes first."""
    parts = [normalized_text(prefix.tokens) for prefix in declaration.prefixes]
    parts.append(normalized_text(declaration.statement))
    return " ".join(parts)


def statement_fingerprints(text: str) -> dict[str, str]:
    """Fingerprint of every named declaration in `text`, keyed by its fully qualified name.

    A name declared twice keeps its first fingerprint; the skeleton check reports duplicates.
    """
    result: dict[str, str] = {}
    for declaration in declarations(text):
        if declaration.name is not None and declaration.name not in result:
            result[declaration.name] = fingerprint(statement_text(declaration))
    return result

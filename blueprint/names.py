"""Lean declaration and module names for results.

Rule: a labelled result is named from its first label (`lem:median-bound` ->
`lem_median_bound`), an unlabelled numbered one from kind and number (`lemma A.2` ->
`lemma_A_2`), anything else from its inventory id. Labels are preferred because numbers shift
when a result is inserted earlier in the paper, and a renamed declaration would look like a new
result to a revision check; authors rarely rename labels.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Final

from paperlint.preflight.model import Result

# Lean 4 keywords and command words that cannot be (or would be confusing as) a bare name.
LEAN_KEYWORDS: Final[frozenset[str]] = frozenset(
    [
        "abbrev",
        "at",
        "axiom",
        "by",
        "calc",
        "class",
        "deriving",
        "do",
        "else",
        "end",
        "example",
        "export",
        "fun",
        "have",
        "if",
        "import",
        "in",
        "inductive",
        "infix",
        "infixl",
        "infixr",
        "instance",
        "lemma",
        "let",
        "local",
        "macro",
        "match",
        "mutual",
        "namespace",
        "noncomputable",
        "notation",
        "open",
        "opaque",
        "partial",
        "postfix",
        "prefix",
        "private",
        "protected",
        "return",
        "section",
        "set_option",
        "show",
        "structure",
        "suffices",
        "syntax",
        "then",
        "theorem",
        "universe",
        "unsafe",
        "variable",
        "where",
        "with",
        "from",
        "for",
        "forall",
        "Type",
        "Prop",
        "Sort",
        "sorry",
        "this",
    ]
)

_NOT_IDENT = re.compile(r"[^A-Za-z0-9_']+")
_UNDERSCORES = re.compile(r"_{2,}")


def sanitise(raw: str) -> str:
    """Turn any text into a Lean identifier piece: ASCII letters, digits, `_` and `'`.

    Accented letters lose their accents (`Müller` -> `Muller`), other letters are spelled by
    their Unicode name (`α` -> `alpha`), anything else becomes `_`: names stay typeable and
    portable across file systems. May return "" or a leading digit; `base_name` guards those."""
    piece = _NOT_IDENT.sub("_", "".join(_ascii(ch) for ch in raw))
    return _UNDERSCORES.sub("_", piece).strip("_").lstrip("'")


def _ascii(ch: str) -> str:
    if ch.isascii():
        return ch
    base = unicodedata.normalize("NFKD", ch)[:1]
    if base.isascii() and base.isalnum():
        return base
    if ch.isalpha():
        # "GREEK SMALL LETTER ALPHA" -> "alpha"
        return "_" + unicodedata.name(ch, "u").split()[-1].lower() + "_"
    return "_"


def base_name(result: Result) -> str:
    """The undeduplicated name for one result (see the module docstring). A Lean blueprint's
    `\\lean{Name.Space.decl}` wins: the paper already says what the declaration is called."""
    planned = _planned_name(result)
    if planned:
        return planned
    prefix = sanitise(result.kind if result.kind != "other" else result.env) or "result"
    label = sanitise(result.labels[0]) if result.labels else ""
    if label:
        # a label without a "lem:"-style prefix says little about what the name is
        name = label if ":" in result.labels[0] else f"{prefix}_{label}"
    elif result.number and sanitise(result.number):
        name = f"{prefix}_{sanitise(result.number)}"
    else:
        name = sanitise(result.id) or prefix
    if name[0].isdigit():
        name = f"{prefix}_{name}"
    return f"{name}_" if name in LEAN_KEYWORDS else name


def _planned_name(result: Result) -> str:
    """The first `\\lean{...}` name, each dotted component a Lean identifier ("" if none)."""
    if not result.lean:
        return ""
    parts = [sanitise(part) for part in result.lean[0].split(".")]
    if not all(parts) or any(p[0].isdigit() or p in LEAN_KEYWORDS for p in parts):
        return ""
    return ".".join(parts)


def module_component(lean_name: str) -> str:
    """`lemma_A_2` -> `Lemma_A_2`: module names are capitalised by Lean convention (a dotted
    `\\lean{}` name gives one component: `Big.thm` -> `Big_thm`)."""
    flat = lean_name.replace(".", "_")
    return flat[:1].upper() + flat[1:]


def assign_names(results: Iterable[Result]) -> dict[str, str]:
    """Result id -> unique Lean name. Clashes get `_2`, `_3`, ... in document order, so the first
    result keeps the plain name and the assignment is deterministic."""
    return _deduplicate((r.id, base_name(r)) for r in results)


def assign_modules(names: dict[str, str], *, package: str = "Paper") -> dict[str, str]:
    """Result id -> module. Unique ignoring case, because the module becomes a file name and
    macOS and Windows file systems do not distinguish `Lemma_a.lean` from `Lemma_A.lean`."""
    unique = _deduplicate(((rid, module_component(n)) for rid, n in names.items()), fold=True)
    return {rid: f"{package}.{component}" for rid, component in unique.items()}


def module_file(module: str) -> str:
    """Workspace-relative file of a module: `Paper.Lemma_A_2` -> `lean/Paper/Lemma_A_2.lean`."""
    return "lean/" + module.replace(".", "/") + ".lean"


def _deduplicate(pairs: Iterable[tuple[str, str]], *, fold: bool = False) -> dict[str, str]:
    taken: set[str] = set()
    out: dict[str, str] = {}
    for rid, name in pairs:
        candidate, n = name, 1
        while (candidate.casefold() if fold else candidate) in taken:
            n += 1
            candidate = f"{name}_{n}"
        taken.add(candidate.casefold() if fold else candidate)
        out[rid] = candidate
    return out

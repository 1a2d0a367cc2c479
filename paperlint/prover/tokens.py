"""Words and symbols -> search tokens, the one vocabulary shared by declarations and queries.

A declaration is indexed by the tokens of its name (`Real.exp_pos` -> real exp pos), of its
pretty-printed type (`0 < Real.exp x` -> zero lt real exp) and of its docstring. A query is
tokenized the same way after a small phrase/word map from mathematical English to Mathlib's
naming convention (`at least` -> le, `positive` -> pos, `product` -> mul prod), so "max of two
reals is at least the left one" meets `le_max_left`. Pure functions, no state.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

# Lean notation -> the word Mathlib uses for it in lemma names.
SYMBOLS: dict[str, str] = {
    "≤": "le",
    "≥": "le",
    "<": "lt",
    ">": "lt",
    "≠": "ne",
    "=": "eq",
    "∣": "dvd",
    "+": "add",
    "*": "mul",
    "•": "smul",
    "/": "div",
    "-": "sub",
    "^": "pow",
    "⁻¹": "inv",
    "√": "sqrt",
    "|": "abs",
    "‖": "norm",
    "∑": "sum",
    "∏": "prod",
    "∫": "integral",
    "∈": "mem",
    "∉": "mem",
    "⊆": "subset",
    "∩": "inter",
    "∪": "union",
    "→": "imp",
    "↔": "iff",
    "¬": "not",
    "∧": "and",
    "∨": "or",
    "∃": "exists",
    "∘": "comp",
    "!": "factorial",
    "%": "mod",
}
_NUMERALS = {"0": "zero", "1": "one", "2": "two"}

# Multi-word phrases first (longest match), then single words.
PHRASES: dict[str, str] = {
    "at least": "le",
    "at most": "le",
    "less than or equal": "le",
    "greater than or equal": "le",
    "less than": "lt",
    "greater than": "lt",
    "bigger than": "lt",
    "smaller than": "lt",
    "absolute value": "abs",
    "square root": "sqrt",
    "not equal": "ne",
    "if and only if": "iff",
}
WORDS: dict[str, tuple[str, ...]] = {
    "positive": ("pos",),
    "nonnegative": ("nonneg",),
    "negative": ("neg",),
    "nonpositive": ("nonpos",),
    "nonzero": ("ne", "zero"),
    "square": ("sq",),
    "squared": ("sq",),
    "sum": ("sum", "add"),
    "plus": ("add",),
    "addition": ("add",),
    "product": ("mul", "prod"),
    "times": ("mul",),
    "multiplication": ("mul",),
    "power": ("pow",),
    "exponential": ("exp",),
    "logarithm": ("log",),
    "divides": ("dvd",),
    "divisible": ("dvd",),
    "division": ("div",),
    "quotient": ("div",),
    "inverse": ("inv",),
    "reciprocal": ("inv",),
    "distance": ("dist",),
    "minimum": ("min",),
    "maximum": ("max",),
    "composition": ("comp",),
    "compose": ("comp",),
    "geometric": ("geom",),
    "increasing": ("mono",),
    "monotone": ("mono",),
    "equal": ("eq",),
    "equals": ("eq",),
    "difference": ("sub",),
    "minus": ("sub",),
    "subset": ("subset",),
    "union": ("union",),
    "intersection": ("inter",),
    "integral": ("integral",),
    "derivative": ("deriv",),
    "limit": ("tendsto",),
    "converges": ("tendsto",),
    "cardinality": ("card",),
    "natural": ("nat",),
    "integer": ("int",),
    "real": ("real",),
    "reals": ("real",),
    "zero": ("zero",),
    "one": ("one",),
}
_COMMON = "a an the of is are be for when then to at by in on and or with its it that this if"
STOPWORDS = frozenset(
    _COMMON.split()
    + ["any", "all", "some", "number", "numbers", "term", "terms"]
    # Spelled-out counts ("max of two reals", "product of two numbers") count arguments;
    # the numeral 2 in a statement is written as a digit.
    + ["two", "three", "both"]
)
# Binder noise in pretty-printed types.
_TYPE_NOISE = frozenset({"type", "sort", "prop", "inst", "u", "v", "w"})

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_'.₀-₉]*")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_SYMBOL = re.compile("|".join(re.escape(s) for s in sorted(SYMBOLS, key=len, reverse=True)))
_WORD = re.compile(r"[a-z][a-z0-9']*|[0-9]+")


def name_tokens(name: str) -> list[str]:
    """`Real.add_one_le_exp` -> real add one le exp; `Finset.sum_nonneg` -> finset sum nonneg."""
    out: list[str] = []
    for part in re.split(r"[._']+", name):
        out.extend(piece.lower() for piece in _CAMEL.findall(part) if piece)
    return [t for t in out if not t.isdigit()]


def _symbols(text: str) -> Iterator[str]:
    for match in _SYMBOL.finditer(text):
        yield SYMBOLS[match.group()]


def type_tokens(type_text: str) -> list[str]:
    """Identifiers (split like names; one-letter variables dropped) and notation words."""
    out: list[str] = []
    for ident in _IDENT.findall(type_text):
        if len(ident) == 1 or ident.lower() in _TYPE_NOISE:
            continue
        out.extend(t for t in name_tokens(ident) if t not in _TYPE_NOISE and len(t) > 1)
    out.extend(_symbols(_strip_binders(type_text)))
    out.extend(_NUMERALS[n] for n in re.findall(r"(?<![\w.])[012](?![\w.])", type_text))
    return out


def _strip_binders(type_text: str) -> str:
    """The statement after its leading `∀ … ,` binders: a binder's `:` or `→` is not notation."""
    text = type_text.strip()
    while text.startswith("∀"):
        depth, cut = 0, -1
        for i, ch in enumerate(text):
            if ch in "([{⦃":
                depth += 1
            elif ch in ")]}⦄":
                depth -= 1
            elif ch == "," and depth == 0:
                cut = i
                break
        if cut < 0:
            break
        text = text[cut + 1 :].strip()
    return text


def doc_tokens(doc: str) -> list[str]:
    return query_tokens(doc)


def _stem(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def query_tokens(query: str) -> list[str]:
    """Tokens of free text: notation, phrases, mapped words, identifiers split like names."""
    text = query.lower()
    out: list[str] = list(_symbols(query))
    for phrase in sorted(PHRASES, key=len, reverse=True):
        if phrase in text:
            out.append(PHRASES[phrase])
            text = text.replace(phrase, " ")
    for ident in _IDENT.findall(query):
        if ("_" in ident or "." in ident) and len(ident) > 2:
            out.extend(name_tokens(ident))
            text = text.replace(ident.lower(), " ")
    for word in _WORD.findall(text):
        if word in _NUMERALS:
            out.append(_NUMERALS[word])
            continue
        if word in STOPWORDS or (len(word) == 1 and word.isalpha()):
            continue
        mapped = WORDS.get(word) or WORDS.get(_stem(word))
        out.extend(mapped if mapped else (_stem(word),))
    return out

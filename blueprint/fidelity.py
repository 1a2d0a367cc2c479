"""Cheap, deterministic fidelity hints from a TeX statement.

These are hints for the drafter and the gate, never judgements: a pattern that does not fire
leaves the field empty. Everything works on the raw TeX with regular expressions, so the same
statement always yields the same hints.
"""

from __future__ import annotations

import re
from typing import Final

from paperlint.blueprint.fingerprint import normalise_tex
from paperlint.blueprint.model import FidelityHints

_SEP: Final = "; "

# Sentence openers that introduce hypotheses, and ones that introduce follow-on claims.
_HYPOTHESIS_OPENERS: Final = ("let ", "suppose ", "assume ", "given ", "fix ", "under ")
_CLAUSE_OPENERS: Final = ("under ", "given ")
_FOLLOW_ON_OPENERS: Final = (
    "moreover",
    "in particular",
    "furthermore",
    "consequently",
    "in addition",
    "additionally",
    "also,",
    "finally",
)

# Object classes worth naming, longest first so "random vector" wins over "vector".
_OBJECT_CLASSES: Final = (
    "i.i.d.",
    "random variables",
    "random variable",
    "random vectors",
    "random vector",
    "random matrix",
    "markov chain",
    "martingale",
    "stochastic process",
    "probability measure",
    "probability space",
    "measure",
    "distribution",
    "estimator",
    "sequence",
    "series",
    "matrix",
    "matrices",
    "function",
    "functions",
    "operator",
    "polynomial",
    "vector",
    "graph",
    "metric space",
    "hilbert space",
    "banach space",
    "set",
    "sets",
    "real numbers",
    "real number",
    "complex numbers",
    "complex number",
    "natural numbers",
    "natural number",
    "integers",
    "integer",
)

# one pass, whole words only ("set" must not fire inside "subset"); the alternation tries
# longer phrases first because _OBJECT_CLASSES lists them first
_OBJECT_CLASS = re.compile(
    r"(?<![a-z])(" + "|".join(re.escape(w) for w in _OBJECT_CLASSES) + r")(?![a-z])"
)

_QUANTIFIERS: Final = (
    (r"for (?:all|every|each|any)\b|\\forall\b", "for all"),
    (r"there (?:exists?|is|are)\b|\\exists\b|for some\b", "there exists"),
    (r"for (?:all )?sufficiently large\b|eventually\b", "eventually"),
)
_QUANTIFIER = re.compile(
    "|".join(f"(?P<q{i}>{p})" for i, (p, _) in enumerate(_QUANTIFIERS)), re.IGNORECASE
)
# the variable a quantifier binds: its math, after at most a few words ("for all real x")
_BOUND_VARIABLE = re.compile(r"((?:\s+[A-Za-z-]+){0,3}?)\s*\$([^$]{1,80})\$")

_INLINE_MATH = re.compile(r"\$([^$]+)\$|\\\((.+?)\\\)")
# a set on the right of \in: blackboard/calligraphic letters (with powers), intervals, braces
_SET = (
    r"(\\math(?:bb|cal|scr|frak)\s*\{?\s*[A-Za-z]\s*\}?(?:\s*\^\s*\{?[^$,;]{1,8}?\}?)?"
    r"|[\[(][^\[\]()$]{1,30}[\])]"
    r"|\\\{[^$]{1,40}?\\\}"
    r"|[A-Z](?![A-Za-z]))"
)
_MEMBERSHIP = re.compile(r"([^$]{1,40}?)\s*\\in\s*" + _SET)
_REL = r"(\\ge|\\geq|\\le|\\leq|>|<|\\neq|\\ne)"
_VAR = r"([A-Za-z]|\\[a-z]+)(?:_\{?\w+\}?)?"
_CONST = r"(-?\d+(?:\.\d+)?|\\infty)"
# "n \ge 1", "\epsilon > 0": a variable bounded by a constant; "0 < p < 1": a chain
_BOUND = re.compile(rf"^\s*{_VAR}\s*{_REL}\s*{_CONST}\s*$")
_CHAIN = re.compile(rf"^\s*{_CONST}\s*{_REL}\s*{_VAR}\s*{_REL}\s*({_CONST}|{_VAR})\s*$")
_LABEL = re.compile(r"\\label\s*\{[^}]*\}")
# "with values in $[0,1]$", "for $x$ in $\mathbb{R}$": a domain stated in prose
_PROSE_IN = re.compile(r"\b(?:values )?in \$\s*" + _SET + r"\s*\$")
# a period that ends a display belongs to the sentence, so move it outside the display
_DISPLAY_PERIOD = re.compile(
    r"\.\s*(\\\]|\\end\{(?:equation|align|gather|multline|displaymath)\*?\})"
)
_CODOMAIN = re.compile(r"\\(?:to|rightarrow|longrightarrow)\s*" + _SET)
_VALUED = re.compile(r"\b((?:real|complex|integer|vector|matrix|set)-valued)\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\\])")
_ABBREVIATION = re.compile(r"(?:i\.i\.d|e\.g|i\.e|cf|resp|a\.s|w\.p|etc)\.$", re.IGNORECASE)
_ITEM = re.compile(r"\\item\b(?:\s*\[[^\]]*\])?")
_LIST_ENV = re.compile(r"\\(?:begin|end)\{(?:enumerate|itemize|description)\}(?:\[[^\]]*\])?")


def fidelity_hints(statement: str) -> FidelityHints:
    """Hints for each gate field from one TeX statement; empty strings where nothing fired."""
    # labels are bookkeeping, not mathematics, and would hide a leading "Let"
    text = _DISPLAY_PERIOD.sub(r"\1.", normalise_tex(_LABEL.sub(" ", statement)))
    sentences = split_sentences(_ITEM.split(_LIST_ENV.sub(" ", text))[0])
    sentences = [part for s in sentences for part in _split_clause_opener(s)]
    hypotheses = [s for s in sentences if s.lower().startswith(_HYPOTHESIS_OPENERS)]
    follow_ons = [s for s in sentences if s.lower().startswith(_FOLLOW_ON_OPENERS)]
    rest = [s for s in sentences if s not in hypotheses and s not in follow_ons]
    if_hyp, conclusion = _split_if_then(" ".join(rest))
    return FidelityHints(
        object_class=_SEP.join(_object_classes(text)),
        quantifier_order=" -> ".join(_quantifiers(text)),
        parameter_domains=_SEP.join(_domains(text)),
        codomain=_SEP.join(_codomains(text)),
        hypotheses=_SEP.join(hypotheses + ([if_hyp] if if_hyp else [])),
        conclusion=conclusion,
        follow_on_claims=_SEP.join(follow_ons + _items(text)),
    )


def split_sentences(text: str) -> list[str]:
    """Split prose at sentence ends, not inside `$…$` and not after "i.i.d." or "e.g."."""
    pieces: list[str] = []
    current = ""
    for chunk in _SENTENCE_END.split(text):
        current = f"{current} {chunk}" if current else chunk
        if current.count("$") % 2 == 0 and not _ABBREVIATION.search(current):
            pieces.append(current.strip())
            current = ""
    if current.strip():
        pieces.append(current.strip())
    return [p for p in pieces if p]


def _split_clause_opener(sentence: str) -> list[str]:
    """ "Under Assumption 1, X holds." -> ["Under Assumption 1", "X holds."]: the opening
    clause is a hypothesis, the rest is the claim."""
    if not sentence.lower().startswith(_CLAUSE_OPENERS):
        return [sentence]
    in_math = False
    for i, ch in enumerate(sentence):
        in_math = in_math != (ch == "$")
        if ch == "," and not in_math:
            return [sentence[:i], sentence[i + 1 :].strip()]
    return [sentence]


def _split_if_then(text: str) -> tuple[str, str]:
    """("If A", "B") for "If A, then B"; ("", text minus a leading "Then") otherwise."""
    match = re.match(r"(?is)^\s*((?:if|whenever|when)\s.+?),?\s+then\s+(.+)$", text)
    if match:
        return match.group(1).strip(), _strip_end(match.group(2))
    return "", _strip_end(re.sub(r"(?i)^\s*then,?\s+", "", text))


def _strip_end(text: str) -> str:
    return text.strip().rstrip(".;,").strip()


def _object_classes(text: str) -> list[str]:
    found: list[str] = []
    for match in _OBJECT_CLASS.finditer(text.lower()):
        word = match.group(1)
        # "random variable" is already said by "random variables"
        if not any(word in other for other in found):
            found.append(word)
    return found


def _quantifiers(text: str) -> list[str]:
    out = []
    for match in _QUANTIFIER.finditer(text):
        label = _QUANTIFIERS[int(str(match.lastgroup)[1:])][1]
        bound = _BOUND_VARIABLE.match(text, match.end())
        words = f"{bound.group(1).strip()} {bound.group(2).strip()}".strip() if bound else ""
        out.append(f"{label} {words}" if words else label)
    return out


def _math_segments(text: str) -> list[str]:
    return [a or b for a, b in _INLINE_MATH.findall(text)]


def _domains(text: str) -> list[str]:
    out: list[str] = []
    for segment in _math_segments(text):
        for variable, domain in _MEMBERSHIP.findall(segment):
            out.append(f"{_last_term(variable)} \\in {domain.strip()}")
        if _BOUND.match(segment) or _CHAIN.match(segment):
            out.append(" ".join(segment.split()))
    out += [f"values in {m.group(1).strip()}" for m in _PROSE_IN.finditer(text)]
    return list(dict.fromkeys(out))


def _last_term(variable: str) -> str:
    # "for all x" or "f(x) = y, x" -> the symbols just before \in
    return re.split(r"[=<>]|\\(?:le|ge|leq|geq|forall|exists)\b", variable)[-1].strip(" ,")


def _codomains(text: str) -> list[str]:
    found = [m.group(1).strip() for seg in _math_segments(text) for m in _CODOMAIN.finditer(seg)]
    found += [m.group(1).lower() for m in _VALUED.finditer(text)]
    return list(dict.fromkeys(found))


def _items(text: str) -> list[str]:
    items = [_strip_end(_LIST_ENV.sub(" ", item)) for item in _ITEM.split(text)[1:]]
    return [i for i in items if i]

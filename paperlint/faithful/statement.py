"""A drafted statement seen as binder groups and a conclusion, on the project's Lean lexer.

Every faithfulness check builds new Lean text out of a drafted declaration: the closed
proposition `∀ binders, conclusion` for the equivalence ladder and the refutation, the same
declaration with one hypothesis removed for the minimal-hypotheses check, a conclusion to
compare with a hypothesis for the lints. They all read the declaration through
`paperlint.lean.declarations` (the split every scan shares) and then split its signature into
top-level bracket groups here, token by token: no regular expression sees Lean text.

A signature this module cannot read (universe parameters `foo.{u}`, an unbracketed binder)
gives `None`; callers treat that as "no check", never as a pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from paperlint.lean.declarations import Declaration, declarations, normalized_text
from paperlint.lean.lexer import Kind, Token, ident_parts, tokenize

_CLOSERS = {"(": ")", "{": "}", "[": "]", "⦃": "⦄"}
_DEPTH_OPEN = frozenset({"(", "{", "[", "⦃", "⟨", "@["})
_DEPTH_CLOSE = frozenset({")", "}", "]", "⦄", "⟩"})

# A binder whose type has one of these at top level is a hypothesis, not a variable.
_PROP_SYMBOLS = frozenset(
    {"<", "≤", ">", "≥", "=", "≠", "∈", "∉", "⊆", "⊂", "⊇", "∣", "↔", "∧", "∨", "¬", "∃", "≡"}
)
_PROP_WORDS = frozenset({"True", "False"})
# Heads of common Mathlib predicates (last name component), so `(hf : Continuous f)` is a
# hypothesis even without a relation symbol.
_PREDICATES = frozenset(
    {
        "Continuous",
        "ContinuousOn",
        "Differentiable",
        "DifferentiableOn",
        "DifferentiableAt",
        "HasDerivAt",
        "Monotone",
        "MonotoneOn",
        "Antitone",
        "StrictMono",
        "StrictAnti",
        "Summable",
        "HasSum",
        "Integrable",
        "IntegrableOn",
        "Measurable",
        "AEMeasurable",
        "BddAbove",
        "BddBelow",
        "IsCompact",
        "IsOpen",
        "IsClosed",
        "Convex",
        "ConvexOn",
        "ConcaveOn",
        "Nonempty",
        "Finite",
        "Countable",
        "Tendsto",
        "Injective",
        "Surjective",
        "Bijective",
        "Prime",
        "Even",
        "Odd",
        "IndepFun",
        "IsProbabilityMeasure",
        "IsFiniteMeasure",
        "Irrational",
    }
)


class BinderRole(StrEnum):
    VARIABLE = "variable"  # `(x : ℝ)`, `{α : Type*}`, `(f : ℕ → ℝ)`
    HYPOTHESIS = "hypothesis"  # `(h : 0 < x)`, `(hf : Continuous f)`
    INSTANCE = "instance"  # `[Fintype α]`, `[inst : Group G]`


@dataclass(frozen=True)
class BinderGroup:
    """One bracketed binder group: `(x y : ℝ)`, `{n : ℕ}`, `[Fintype α]`."""

    bracket: str  # "(", "{", "[" or "⦃"
    names: tuple[Token, ...]  # empty for an anonymous instance `[Fintype α]`
    type_tokens: tuple[Token, ...]

    @property
    def type(self) -> str:
        return normalized_text(self.type_tokens)

    @property
    def explicit(self) -> bool:
        return self.bracket == "("

    @property
    def role(self) -> BinderRole:
        return binder_role(self)

    def name_texts(self) -> tuple[str, ...]:
        return tuple(t.text for t in self.names)

    def render(self, names: Sequence[str] | None = None) -> str:
        shown = self.name_texts() if names is None else tuple(names)
        close = _CLOSERS[self.bracket]
        if not shown:
            return f"{self.bracket}{self.type}{close}"
        if not self.type_tokens:
            return f"{self.bracket}{' '.join(shown)}{close}"
        return f"{self.bracket}{' '.join(shown)} : {self.type}{close}"


@dataclass(frozen=True)
class Statement:
    """A declaration's keyword, name, binder groups, conclusion and body."""

    declaration: Declaration
    groups: tuple[BinderGroup, ...]
    conclusion_tokens: tuple[Token, ...]
    source: str = ""  # the text the tokens' offsets point into

    @property
    def keyword(self) -> str:
        return self.declaration.kind

    @property
    def name(self) -> str | None:
        return self.declaration.name

    @property
    def short_name(self) -> str:
        return ident_parts(self.name)[-1] if self.name else "statement"

    @property
    def conclusion(self) -> str:
        return normalized_text(self.conclusion_tokens)

    @property
    def body_tokens(self) -> tuple[Token, ...]:
        return self.declaration.body

    @property
    def body(self) -> str:
        """The proof as written (line breaks matter in a tactic block)."""
        body = self.declaration.body
        if not body:
            return ""
        if self.source:
            return self.source[body[0].offset : body[-1].end]
        return normalized_text(body)

    def signature(self, groups: Sequence[BinderGroup] | None = None) -> str:
        return " ".join(g.render() for g in (self.groups if groups is None else groups))

    def proposition(self) -> str:
        """The statement as one closed proposition, `∀ binders, conclusion`."""
        if not self.groups:
            return self.conclusion
        return f"∀ {self.signature()}, {self.conclusion}"

    def binder_names(self) -> list[str]:
        return [n for g in self.groups for n in g.name_texts()]

    def explicit_names(self) -> list[str]:
        return [n for g in self.groups if g.explicit for n in g.name_texts()]

    def mentions(self, name: str, *, skip_group: int | None = None) -> bool:
        """Whether `name` occurs in the conclusion or in another group's type."""
        haystack = list(self.conclusion_tokens)
        for index, group in enumerate(self.groups):
            if index != skip_group:
                haystack.extend(group.type_tokens)
        return any(is_name(t, name) for t in haystack)

    def without(self, name: str) -> Statement:
        """The statement with the binder `name` removed (its group kept for the others)."""
        groups: list[BinderGroup] = []
        for group in self.groups:
            kept = tuple(t for t in group.names if t.text != name)
            if kept or not group.names:
                groups.append(replace(group, names=kept))
        return replace(self, groups=tuple(groups))

    def theorem(self, name: str, body: str) -> str:
        """`theorem NAME binders : conclusion := BODY` for this statement's binders."""
        signature = self.signature()
        head = f"theorem {name} {signature} :" if signature else f"theorem {name} :"
        return f"{head} {self.conclusion} := {body}"


def is_name(token: Token, name: str) -> bool:
    """`token` refers to the local `name` (`h`, `h.le`, `h.1` all refer to `h`)."""
    return token.kind is Kind.IDENT and ident_parts(token.text)[0] == name


def parse_statement(text: str, *, name: str | None = None) -> Statement | None:
    """The declaration named `name` in `text` (default: the last one), or None."""
    found = declarations(text)
    if name is not None:
        found = [d for d in found if d.name and ident_parts(d.name)[-1] == ident_parts(name)[-1]]
    if not found:
        return None
    return from_declaration(found[-1], source=text)


def from_declaration(declaration: Declaration, *, source: str = "") -> Statement | None:
    tokens = declaration.statement
    start = 1 if declaration.kind == "example" or declaration.name is None else 2
    split = _split_signature(tokens[start:])
    if split is None:
        return None
    groups, conclusion = split
    return Statement(
        declaration=declaration, groups=groups, conclusion_tokens=conclusion, source=source
    )


def _split_signature(
    tokens: Sequence[Token],
) -> tuple[tuple[BinderGroup, ...], tuple[Token, ...]] | None:
    groups: list[BinderGroup] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token.text == ":":
            return tuple(groups), tuple(tokens[index + 1 :])
        if token.text not in _CLOSERS:
            return None  # universe parameters, an unbracketed binder: not read
        end = _group_end(tokens, index)
        if end is None:
            return None
        groups.append(_make_group(token.text, tuple(tokens[index + 1 : end])))
        index = end + 1
    return None  # no top-level `:`: a `def` without a type, or a broken signature


def _group_end(tokens: Sequence[Token], start: int) -> int | None:
    depth = 0
    for index in range(start, len(tokens)):
        depth = depth_after(depth, tokens[index])
        if depth == 0:
            return index
    return None


def depth_after(depth: int, token: Token) -> int:
    if token.kind is not Kind.SYMBOL:
        return depth
    if token.text in _DEPTH_OPEN:
        return depth + 1
    if token.text in _DEPTH_CLOSE:
        return max(depth - 1, 0)
    return depth


def top_level(tokens: Sequence[Token]) -> list[Token]:
    """The tokens of `tokens` outside any bracket."""
    out: list[Token] = []
    depth = 0
    for token in tokens:
        before = depth
        depth = depth_after(depth, token)
        if before == 0 and depth == 0:
            out.append(token)
    return out


def _make_group(bracket: str, inner: tuple[Token, ...]) -> BinderGroup:
    colon = next((i for i, t in enumerate(inner) if t.text == ":" and _at_top(inner, i)), None)
    if colon is None:
        if bracket == "[":
            return BinderGroup(bracket, (), inner)
        return BinderGroup(bracket, inner, ())
    return BinderGroup(bracket, inner[:colon], inner[colon + 1 :])


def _at_top(tokens: Sequence[Token], index: int) -> bool:
    depth = 0
    for token in tokens[:index]:
        depth = depth_after(depth, token)
    return depth == 0


def binder_role(group: BinderGroup) -> BinderRole:
    """Variable, hypothesis or instance: a reading of the binder's type, not elaboration."""
    if group.bracket == "[":
        return BinderRole.INSTANCE
    shallow = top_level(group.type_tokens)
    if any(t.text in _PROP_SYMBOLS or t.text in _PROP_WORDS for t in shallow):
        return BinderRole.HYPOTHESIS
    head = group.type_tokens[0] if group.type_tokens else None
    if head is not None and head.kind is Kind.IDENT and ident_parts(head.text)[-1] in _PREDICATES:
        return BinderRole.HYPOTHESIS
    names = group.name_texts()
    if names and all(n.startswith("h") for n in names) and not _looks_like_type(head):
        return BinderRole.HYPOTHESIS
    return BinderRole.VARIABLE


_TYPE_HEADS = frozenset(
    {"ℕ", "ℤ", "ℚ", "ℝ", "ℂ", "Type", "Sort", "Prop", "Fin", "Finset", "Set", "List", "Matrix"}
)


def _looks_like_type(head: Token | None) -> bool:
    return head is not None and ident_parts(head.text)[0] in _TYPE_HEADS


def pin_universes(text: str, universe: str = "u_faithful") -> tuple[str, bool]:
    """`Type*`/`Sort*` replaced by `Type universe`/`Sort universe`, and whether any was.

    Two statements compared inside one declaration must quantify over the same universe, or
    neither implies the other at all; each `Type*` would otherwise get its own level. The
    comparison is then made at one universe, which the record says.
    """
    tokens = tokenize(text)
    cuts: list[tuple[int, int, str]] = []
    for first, second in zip(tokens, tokens[1:], strict=False):
        if (
            first.kind is Kind.IDENT
            and first.text in {"Type", "Sort"}
            and second.text == "*"
            and first.end == second.offset
        ):
            cuts.append((first.offset, second.end, f"{first.text} {universe}"))
    for start, end, new in reversed(cuts):
        text = text[:start] + new + text[end:]
    return text, bool(cuts)

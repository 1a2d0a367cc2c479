"""Advisory lints on a drafted statement: patterns that often betray an unfaithful one.

Each lint reads the project lexer's tokens of the statement (and of the definitions it uses,
and for two of them the paper's TeX statement) and returns typed `Lint` records. They are
signals the gate must look at and answer, never verdicts: a lint never blocks by itself,
because each pattern also has faithful uses.

- conclusion-repeats-hypothesis: `(h : P) : P`, or `P` as a conjunct of the conclusion;
- unused-binder: an explicit variable neither the conclusion nor another binder mentions;
- pinned-exists-unique: `∃! x, … ∧ x = e`: uniqueness is then trivial;
- nat-arithmetic: ℕ subtraction or ℕ/ℤ division where the paper's statement means reals;
- true-in-definition: a literal `True` inside a definition's body;
- alias-definition: a definition whose body only renames another constant;
- junk-default: `sSup`, `sInf`, `⨆`, `⨅`, `limUnder`, `tsum`, `deriv` without the hypothesis
  that keeps them away from their junk value;
- bare-bound: the paper asks for the best constant; the Lean states only an inequality.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from paperlint.faithful.junk import NATURAL, variables_by_type
from paperlint.faithful.statement import (
    BinderRole,
    Statement,
    depth_after,
    is_name,
    parse_statement,
    top_level,
)
from paperlint.lean.declarations import declarations
from paperlint.lean.lexer import Kind, Token, ident_parts
from paperlint.records.faithfulness import Lint, LintRule

_INTEGRAL = NATURAL | {"ℤ", "Int"}
_REAL_SIGNS = (r"\mathbb{R}", r"\mathbb R", r"\R ", r"\R$", r"\reals", "real", r"\frac",
               r"\tfrac", r"\dfrac", r"\sqrt", r"\mathbb{Q}", "rational")  # fmt: skip
_SIGNED_SIGNS = (r"\mathbb{Z}", r"\mathbb Z", "integer")
_BEST_WORDS = ("best constant", "best possible", "sharp", "optimal", "cannot be improved",
               "tight", "smallest constant", "least constant", "largest constant")  # fmt: skip
_INEQUALITIES = frozenset({"≤", "<", "≥", ">"})
_SHARPNESS = frozenset({"IsLeast", "IsGreatest", "IsLUB", "IsGLB", "sInf", "sSup", "⨅", "⨆",
                        "iInf", "iSup", "¬", "∃"})  # fmt: skip
# Operator → (the guards any one of which keeps it off its junk value, what the junk is).
_JUNK: dict[str, tuple[frozenset[str], str]] = {
    "sSup": (frozenset({"BddAbove", "IsLUB", "IsGreatest"}), "0 for an empty or unbounded set"),
    "sInf": (frozenset({"BddBelow", "IsGLB", "IsLeast"}), "0 for an empty or unbounded set"),
    "iSup": (frozenset({"BddAbove"}), "0 for an unbounded family"),
    "⨆": (frozenset({"BddAbove"}), "0 for an unbounded family"),
    "iInf": (frozenset({"BddBelow"}), "0 for an unbounded family"),
    "⨅": (frozenset({"BddBelow"}), "0 for an unbounded family"),
    "limUnder": (frozenset({"Tendsto", "CauchySeq", "HasLimit"}), "arbitrary without a limit"),
    "lim": (frozenset({"Tendsto", "CauchySeq", "HasLimit"}), "arbitrary without a limit"),
    "tsum": (frozenset({"Summable", "HasSum"}), "0 for a non-summable family"),
    "deriv": (
        frozenset({"Differentiable", "DifferentiableAt", "HasDerivAt", "DifferentiableOn"}),
        "0 where the function is not differentiable",
    ),
}


def lint_statement(
    statement_text: str, *, definitions: Sequence[str] = (), tex: str | None = None
) -> list[Lint]:
    """Every advisory lint on a drafted statement, its definitions and the paper's TeX."""
    found: list[Lint] = []
    statement = parse_statement(statement_text)
    if statement is not None:
        found += _repeats(statement)
        found += _unused(statement)
        found += _pinned_unique(statement)
        found += _junk_defaults(statement)
        if tex is not None:
            found += _nat_arithmetic(statement, tex)
            found += _bare_bound(statement, tex)
    for text in definitions:
        found += lint_definition(text)
    return _unique(found)


def lint_definition(text: str) -> list[Lint]:
    found: list[Lint] = []
    for declaration in declarations(text):
        if declaration.kind not in {"def", "abbrev"}:
            continue
        source = ident_parts(declaration.name)[-1] if declaration.name else "definition"
        body = declaration.body
        found += [
            _lint(
                LintRule.TRUE_IN_DEFINITION,
                "`True` inside a definition: is a condition missing?",
                t,
                source,
            )  # fmt: skip
            for t in body
            if t.kind is Kind.IDENT and t.text == "True"
        ]
        statement = parse_statement(text, name=declaration.name)
        params = statement.explicit_names() if statement else []
        alias = _alias_target(body, params)
        if alias is not None:
            message = f"`{source}` only renames `{alias.text}`: is this the paper's object?"
            found.append(_lint(LintRule.ALIAS_DEFINITION, message, alias, source))
        if statement is not None:
            found += [
                lint.model_copy(update={"source": source})
                for lint in _junk_defaults(statement, body=body)
            ]
    return found


def _lint(rule: LintRule, message: str, token: Token, source: str = "statement") -> Lint:
    return Lint(
        rule=rule,
        message=message,
        subject=token.text,
        source=source,
        line=token.line,
        col=token.col,
    )


def _unique(lints: list[Lint]) -> list[Lint]:
    seen: dict[tuple[str, str, str], Lint] = {}
    for lint in lints:
        seen.setdefault((lint.rule.value, lint.source, lint.subject), lint)
    return list(seen.values())


def _key(tokens: Sequence[Token]) -> tuple[str, ...]:
    """Token texts without enclosing parentheses, for comparing two propositions."""
    texts = tuple(t.text for t in tokens)
    while len(texts) >= 2 and texts[0] == "(" and texts[-1] == ")" and _wraps(tokens):
        texts, tokens = texts[1:-1], tokens[1:-1]
    return texts


def _wraps(tokens: Sequence[Token]) -> bool:
    depth = 0
    for index, token in enumerate(tokens):
        depth = depth_after(depth, token)
        if depth == 0 and index < len(tokens) - 1:
            return False
    return True


def _split_top(tokens: Sequence[Token], separator: str) -> list[list[Token]]:
    parts: list[list[Token]] = [[]]
    depth = 0
    for token in tokens:
        if depth == 0 and token.text == separator:
            parts.append([])
            continue
        depth = depth_after(depth, token)
        parts[-1].append(token)
    return parts


# --- the statement lints ----------------------------------------------------------------------


def _repeats(statement: Statement) -> Iterator[Lint]:
    conjuncts = {_key(part) for part in _split_top(statement.conclusion_tokens, "∧")}
    for group in statement.groups:
        if group.role is not BinderRole.HYPOTHESIS or not group.names:
            continue
        if _key(group.type_tokens) in conjuncts:
            yield _lint(
                LintRule.CONCLUSION_REPEATS_HYPOTHESIS,
                f"the conclusion repeats hypothesis `{group.names[0].text}` ({group.type})",
                group.names[0],
            )


def _unused(statement: Statement) -> Iterator[Lint]:
    for index, group in enumerate(statement.groups):
        if not group.explicit or group.role is not BinderRole.VARIABLE:
            continue
        for name in group.names:
            if not name.text.startswith("_") and not statement.mentions(
                name.text, skip_group=index
            ):
                yield _lint(
                    LintRule.UNUSED_BINDER,
                    f"explicit binder `{name.text}` is used nowhere in the statement",
                    name,
                )


def _pinned_unique(statement: Statement) -> Iterator[Lint]:
    tokens = [t for g in statement.groups for t in g.type_tokens]
    tokens += statement.conclusion_tokens
    for index, token in enumerate(tokens[:-1]):
        bang = tokens[index + 1]
        if token.text != "∃" or bang.text != "!" or bang.offset != token.end:
            continue
        bound, body = _quantified(tokens[index + 2 :])
        for part in _split_top(body, "∧"):
            if any(_pins(part, name) for name in bound):
                yield _lint(
                    LintRule.PINNED_UNIQUE,
                    "`∃!` whose body fixes the witness by an equation: uniqueness is trivial",
                    token,
                )
                break


def _quantified(tokens: Sequence[Token]) -> tuple[list[str], list[Token]]:
    """Bound names and body of `x y : T, body` or `(x : T), body` (up to the group end)."""
    depth = 0
    names: list[str] = []
    for index, token in enumerate(tokens):
        if depth == 0 and token.text == ",":
            return names, _group_rest(tokens[index + 1 :])
        if depth <= 1 and token.kind is Kind.IDENT and not _after_colon(tokens, index):
            names.append(token.text)
        depth = depth_after(depth, token)
    return names, []


def _after_colon(tokens: Sequence[Token], index: int) -> bool:
    return any(t.text == ":" for t in tokens[:index])


def _group_rest(tokens: Sequence[Token]) -> list[Token]:
    depth = 0
    out: list[Token] = []
    for token in tokens:
        if token.kind is Kind.SYMBOL and token.text in {")", "]", "}", "⟩"} and depth == 0:
            break
        depth = depth_after(depth, token)
        out.append(token)
    return out


def _pins(part: Sequence[Token], name: str) -> bool:
    sides = _split_top(part, "=")
    if len(sides) != 2:
        return False
    left, right = (_key(side) for side in sides)
    mentions_left = any(t == name for t in left)
    mentions_right = any(t == name for t in right)
    return (left == (name,) and not mentions_right) or (right == (name,) and not mentions_left)


def _junk_defaults(statement: Statement, *, body: Sequence[Token] = ()) -> Iterator[Lint]:
    guards = {
        ident_parts(t.text)[-1]
        for g in statement.groups
        for t in g.type_tokens
        if t.kind is Kind.IDENT
    }
    scanned = [*statement.conclusion_tokens, *body]
    scanned += [t for g in statement.groups for t in g.type_tokens]
    for token in scanned:
        head = ident_parts(token.text)[-1] if token.kind is Kind.IDENT else token.text
        if head not in _JUNK:
            continue
        needed, junk = _JUNK[head]
        if not guards & needed:
            wanted = " or ".join(f"`{g}`" for g in sorted(needed))
            yield _lint(
                LintRule.JUNK_DEFAULT,
                f"`{head}` is {junk} in Mathlib, and no hypothesis gives {wanted}",
                token,
            )


def _nat_arithmetic(statement: Statement, tex: str) -> Iterator[Lint]:
    lowered = tex.lower()
    means_reals = any(sign.lower() in lowered for sign in _REAL_SIGNS)
    means_signed = means_reals or any(sign.lower() in lowered for sign in _SIGNED_SIGNS)
    types = variables_by_type(statement)
    tokens = [*statement.conclusion_tokens]
    for group in statement.groups:
        if group.role is BinderRole.HYPOTHESIS:
            tokens += group.type_tokens
    for index, token in enumerate(tokens):
        if token.text == "/" and means_reals:
            wanted = _INTEGRAL
            what = "division truncates in ℕ and ℤ; the paper's statement is about reals"
        elif token.text == "-" and means_signed:
            wanted = NATURAL
            what = "subtraction truncates at 0 in ℕ; the paper's quantities can be negative"
        else:
            continue
        operands = [tokens[i] for i in (index - 1, index + 1) if 0 <= i < len(tokens)]
        typed = [o for o in operands if any(is_name(o, n) and types[n] in wanted for n in types)]
        if typed and not _ascribed_elsewhere(tokens, index):
            yield _lint(LintRule.NAT_ARITHMETIC, f"`{typed[0].text} {token.text} …`: {what}", token)


def _ascribed_elsewhere(tokens: Sequence[Token], index: int) -> bool:
    """The operator sits in `( … : T)` with T not ℕ/ℤ: Lean computes in T, after casts."""
    opens: list[int] = []
    depth = 0
    for position, token in enumerate(tokens[:index]):
        new = depth_after(depth, token)
        if new > depth:
            opens.append(position)
        elif new < depth and opens:
            opens.pop()
        depth = new
    if not opens or tokens[opens[-1]].text != "(":
        return False
    inner: list[Token] = []
    depth = 0
    for token in tokens[opens[-1] :]:
        depth = depth_after(depth, token)
        if depth == 0:
            break
        inner.append(token)
    shallow = top_level(inner[1:])
    colon = next((i for i, t in enumerate(shallow) if t.text == ":"), None)
    if colon is None or colon + 1 >= len(shallow):
        return False
    return shallow[colon + 1].text not in _INTEGRAL


def _bare_bound(statement: Statement, tex: str) -> Iterator[Lint]:
    lowered = " ".join(tex.lower().split())
    if not any(word in lowered for word in _BEST_WORDS):
        return
    shallow = top_level(statement.conclusion_tokens)
    inequality = next((t for t in shallow if t.text in _INEQUALITIES), None)
    texts = {ident_parts(t.text)[-1] for t in statement.conclusion_tokens}
    if inequality is not None and not texts & _SHARPNESS:
        yield _lint(
            LintRule.BARE_BOUND,
            "the paper asks for the best constant; the Lean states only the bound, not that "
            "it cannot be improved",
            inequality,
        )


def _alias_target(body: Sequence[Token], params: Sequence[str]) -> Token | None:
    """`Foo` or `Foo x y` with exactly the definition's explicit parameters, in order."""
    texts = [t.text for t in body]
    if texts[:1] == ["fun"] and "=>" in texts:
        arrow = texts.index("=>")
        if not all(t.kind is Kind.IDENT for t in body[1:arrow]):
            return None
        params = [*params, *texts[1:arrow]]
        body, texts = body[arrow + 1 :], texts[arrow + 1 :]
    if not body or body[0].kind is not Kind.IDENT or texts[1:] != list(params):
        return None
    if body[0].text in params or body[0].text in {"True", "False"}:
        return None
    return body[0]

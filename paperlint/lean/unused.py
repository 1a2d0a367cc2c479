"""The unused-hypothesis lint: a named hypothesis no part of the theorem mentions.

A hypothesis the statement carries but the proof never needs is a signal worth a reviewer's
look: the paper may assume more than it uses, or the Lean statement may be vacuous, as in
`(h : x < x) : x = 1729` proved from `h` alone (docs/prior-art.md §2.10, §4.6). This needs no Lean:
a name that occurs nowhere in the result type, the other binders or the proof is unused. When the
proof runs automation that may consume hypotheses without naming them (`linarith`, `simp_all`,
`assumption`, `‹_›`, `simp [*]`), the finding is only advisory, as is a named instance binder,
which typeclass resolution uses silently.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from paperlint.lean.declarations import PROOF_KEYWORDS, Declaration, declarations
from paperlint.lean.findings import LeanFinding, Rule
from paperlint.lean.lexer import Kind, Token, ident_parts

# Tactics that can use a hypothesis from the context without its name.
AUTOMATION = frozenset(
    {
        "assumption",
        "assumption'",
        "assumption_mod_cast",
        "apply_assumption",
        "tauto",
        "itauto",
        "decide",
        "omega",
        "linarith",
        "nlinarith",
        "polyrith",
        "positivity",
        "gcongr",
        "bound",
        "field_simp",
        "aesop",
        "aesop_cat",
        "simp_all",
        "simp_all?",
        "simpa",
        "solve_by_elim",
        "exact?",
        "apply?",
        "subst",
        "subst_vars",
        "grind",
        "trivial",
        "contradiction",
        "cc",
        "interval_cases",
        "fun_prop",
        "continuity",
        "measurability",
        "infer_instance",
        "inferInstance",
        "norm_num",
        "nontriviality",
        "mono",
        "simp",  # simp's default discharger closes side goals from hypotheses
        "simp?",
        "simp_arith",
        "norm_cast",
        "push_cast",
        "split_ifs",
        "congr",
        "congr!",
        "convert",
        "use",
        "exists",
        "apply_rules",
        "tfae_finish",
        "order",
        "‹",
    }
)
_OPEN_TO_CLOSE = {"(": ")", "{": "}", "[": "]", "⦃": "⦄"}
_DEPTH_OPEN = frozenset({"(", "{", "[", "⦃", "⟨", "@["})
_DEPTH_CLOSE = frozenset({")", "}", "]", "⦄", "⟩"})


@dataclass(frozen=True)
class Binder:
    """One named binder of a signature."""

    name: Token
    bracket: str  # "(", "{", "[" or "⦃"
    group: int  # which binder group it came from


def unused_hypotheses(text: str, *, file: str = "<text>") -> list[LeanFinding]:
    """Named hypotheses of each theorem, lemma and example that nothing mentions."""
    findings: list[LeanFinding] = []
    for declaration in declarations(text):
        if declaration.kind in PROOF_KEYWORDS and not _is_skipped(declaration):
            findings.extend(_declaration_findings(declaration, file))
    return findings


def _is_skipped(declaration: Declaration) -> bool:
    """No proof to look at: no body, or only a `sorry` stub."""
    texts = [t.text for t in declaration.body]
    return not texts or texts in (["sorry"], ["by", "sorry"])


def _declaration_findings(declaration: Declaration, file: str) -> Iterator[LeanFinding]:
    start = 1 if declaration.kind == "example" else 2  # skip the keyword and the name
    signature = declaration.statement[start:]
    groups, result_type = _split_signature(signature)
    automated = has_automation(declaration.body)
    for binder in _named_binders(groups):
        others = [t for i, g in enumerate(groups) if i != binder.group for t in g]
        own_type = _after_colon(groups[binder.group])
        haystack = [*result_type, *others, *own_type, *declaration.body]
        if _mentions(haystack, binder.name.text):
            continue
        silent = automated or binder.bracket == "["
        yield _finding(file, binder, silent)


def _finding(file: str, binder: Binder, silent: bool) -> LeanFinding:
    name = binder.name.text
    if binder.bracket == "[":
        message = f"instance `{name}` is never named; instance resolution may still use it"
    elif silent:
        message = f"hypothesis `{name}` is never named; automation in the proof may use it"
    else:
        message = f"hypothesis `{name}` is used neither in the statement nor in the proof"
    return LeanFinding(
        file=file,
        line=binder.name.line,
        col=binder.name.col,
        rule=Rule.UNUSED_HYPOTHESIS,
        message=message,
        blocking=not silent,
    )


def _split_signature(signature: Sequence[Token]) -> tuple[list[list[Token]], list[Token]]:
    """Binder groups (with their brackets) before the top-level `:`, and the result type."""
    groups: list[list[Token]] = []
    depth = 0
    for index, token in enumerate(signature):
        if depth == 0 and token.text == ":":
            return groups, list(signature[index + 1 :])
        if depth == 0 and token.text in _OPEN_TO_CLOSE:
            groups.append([])
        if (depth > 0 or token.text in _OPEN_TO_CLOSE) and groups:
            groups[-1].append(token)
        depth = _depth(depth, token)
    return groups, []


def _depth(depth: int, token: Token) -> int:
    if token.kind is not Kind.SYMBOL:
        return depth
    if token.text in _DEPTH_OPEN:
        return depth + 1
    if token.text in _DEPTH_CLOSE:
        return max(depth - 1, 0)
    return depth


def _named_binders(groups: list[list[Token]]) -> Iterator[Binder]:
    for index, group in enumerate(groups):
        if not group:
            continue
        bracket = group[0].text
        inner = group[1:-1]
        colon = _colon_index(inner)
        if colon is None and bracket == "[":
            continue  # `[Fintype α]`: an anonymous instance
        names = inner if colon is None else inner[:colon]
        for token in names:
            if token.kind is Kind.IDENT and _is_checked_name(token.text):
                yield Binder(token, bracket, index)


def _colon_index(inner: Sequence[Token]) -> int | None:
    depth = 0
    for index, token in enumerate(inner):
        if depth == 0 and token.text == ":":
            return index
        depth = _depth(depth, token)
    return None


def _after_colon(group: list[Token]) -> list[Token]:
    inner = group[1:-1]
    colon = _colon_index(inner)
    return [] if colon is None else inner[colon + 1 :]


def _is_checked_name(name: str) -> bool:
    return "." not in name and not name.startswith(("_", "inst")) and name != "this"


def _mentions(tokens: Sequence[Token], name: str) -> bool:
    return any(t.kind is Kind.IDENT and ident_parts(t.text)[0] == name for t in tokens)


def has_automation(body: Sequence[Token]) -> bool:
    """Whether the proof may use hypotheses without naming them."""
    for index, token in enumerate(body):
        if token.text in AUTOMATION:
            return True
        if token.text == "*" and _is_wildcard(body, index):
            return True
    return False


def _is_wildcard(body: Sequence[Token], index: int) -> bool:
    """`simp [*]`, `simp [foo, *]`, `simp at *`, `simpa using *`: not multiplication."""
    before = body[index - 1].text if index else ""
    after = body[index + 1].text if index + 1 < len(body) else ""
    return before in {"[", ",", "at", "using"} or after in {"]", ","}

"""The skeleton check: a proof may only fill the `sorry` holes of the gated skeleton.

The gate approves statements, with `sorry` bodies; the prover then writes proofs. If the prover
could also edit a statement (weaken it, or replace the claim by `True`), delete a declaration,
add an instance or an `open` that changes what a statement means, or swap the imports, a green
build would prove something other than what was reviewed. This module compares the candidate
with the skeleton and reports every such change (docs/prior-art.md §2.4, docs/lean-notes.md §6.0).
New helper theorems, lemmas and definitions are allowed, and are subject to the hygiene scan like
the rest.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from paperlint.lean.declarations import Command, Declaration, declarations, normalized_text
from paperlint.lean.declarations import split_commands as _split
from paperlint.lean.findings import LeanFinding, Rule
from paperlint.lean.fingerprint import statement_text
from paperlint.lean.hygiene import DEFAULT_POLICY, HygienePolicy, imports, scan_text
from paperlint.lean.lexer import Kind, Token, ident_parts

HELPER_KINDS = frozenset({"theorem", "lemma", "def", "abbrev", "example"})
_NOT_CONTEXT = frozenset({"import"})  # compared separately, as the header


def check_skeleton(
    skeleton: str,
    candidate: str,
    *,
    file: str = "<candidate>",
    policy: HygienePolicy = DEFAULT_POLICY,
    allowed_new_imports: Sequence[str] = ("Mathlib",),
    include_hygiene: bool = True,
) -> list[LeanFinding]:
    """Every way `candidate` departs from filling the `sorry` holes of `skeleton`.

    `allowed_new_imports` names the libraries whose modules may be added to the header.
    """
    before = declarations(skeleton)
    gated = [d for d in before if d.name is not None]
    found = declarations(candidate)
    unmatched, unnamed_findings = _match_unnamed([d for d in before if d.name is None], found, file)
    findings = [
        *_header_findings(skeleton, candidate, file, allowed_new_imports),
        *_context_findings(_split(skeleton), _split(candidate), file),
        *_gated_findings(gated, found, file),
        *unnamed_findings,
        *_helper_findings(gated, unmatched, file),
    ]
    if include_hygiene:
        findings.extend(scan_text(candidate, file=file, policy=policy))
    return findings


def _at(file: str, token: Token | None, rule: Rule, message: str) -> LeanFinding:
    line, col = (token.line, token.col) if token is not None else (1, 0)
    return LeanFinding(file=file, line=line, col=col, rule=rule, message=message, blocking=True)


def _header_findings(
    skeleton: str, candidate: str, file: str, allowed: Sequence[str]
) -> Iterator[LeanFinding]:
    before = [ref.module for ref in imports(skeleton)]
    after = imports(candidate)
    kept = [ref.module for ref in after if ref.module in before]
    if kept != before:
        missing = [m for m in before if m not in kept]
        detail = f"`import {missing[0]}` was removed" if missing else "the imports were reordered"
        yield _at(file, None, Rule.HEADER_CHANGED, f"{detail}; the header is the skeleton's")
    for ref in after:
        if ref.module not in before and ident_parts(ref.module)[0] not in allowed:
            token = Token(Kind.IDENT, ref.module, ref.line, ref.col, 0)
            message = f"`import {ref.module}` is not an allowed addition to the header"
            yield _at(file, token, Rule.HEADER_CHANGED, message)


def _context_commands(commands: list[Command]) -> list[Command]:
    """Commands that set the scene for declarations: namespaces, opens, variables, options."""
    return [
        c
        for c in commands
        if c.keyword not in _NOT_CONTEXT
        and c.keyword not in HELPER_KINDS | {"instance", "example", "structure", "class"}
        and c.keyword not in {"inductive", "axiom", "opaque", "irreducible_def"}
        and not c.is_scoped_prefix
        and c.tokens[c.keyword_index].kind is not Kind.HASH_COMMAND
    ]


def _context_findings(
    skeleton: list[Command], candidate: list[Command], file: str
) -> Iterator[LeanFinding]:
    before = _context_commands(skeleton)
    after = _context_commands(candidate)
    for index, command in enumerate(after):
        if index >= len(before) or normalized_text(command.tokens) != normalized_text(
            before[index].tokens
        ):
            message = f"`{_short(command)}` is not in the skeleton at this point"
            yield _at(file, command.tokens[0], Rule.CONTEXT_CHANGED, message)
            return
    if len(after) < len(before):
        message = f"`{_short(before[len(after)])}` from the skeleton is missing"
        yield _at(file, None, Rule.CONTEXT_CHANGED, message)


def _short(command: Command) -> str:
    text = normalized_text(command.tokens)
    return text if len(text) <= 60 else text[:57] + "..."


def _gated_findings(
    gated: list[Declaration], found: list[Declaration], file: str
) -> Iterator[LeanFinding]:
    by_name: dict[str, Declaration] = {}
    for declaration in found:
        if declaration.name is None:
            continue
        if declaration.name in by_name:
            message = f"`{declaration.name}` is declared twice"
            yield _at(file, declaration.keyword_token, Rule.DUPLICATE_DECLARATION, message)
        by_name.setdefault(declaration.name, declaration)
    for original in gated:
        current = by_name.get(original.name or "")
        if current is None:
            message = f"gated `{original.name}` is missing (removed or renamed)"
            yield _at(file, None, Rule.DECLARATION_REMOVED, message)
        else:
            yield from _compare(original, current, file)
    yield from _order_findings(gated, found, file)


def _compare(original: Declaration, current: Declaration, file: str) -> Iterator[LeanFinding]:
    where = current.keyword_token
    if statement_text(original) != statement_text(current):
        message = f"the statement of `{original.name}` differs from the gated one"
        yield _at(file, where, Rule.STATEMENT_CHANGED, message)
    elif not fills_holes(original.body, current.body) or original.terminator != current.terminator:
        message = f"`{original.name}` changed outside its `sorry` holes"
        yield _at(file, where, Rule.DECLARATION_CHANGED, message)


def fills_holes(skeleton_body: Sequence[Token], candidate_body: Sequence[Token]) -> bool:
    """Whether `candidate_body` is `skeleton_body` with each `sorry` replaced by some tokens."""
    segments: list[list[str]] = [[]]
    for token in skeleton_body:
        if token.kind is Kind.IDENT and token.text == "sorry":
            segments.append([])
        else:
            segments[-1].append(token.text)
    texts = [t.text for t in candidate_body]
    if len(segments) == 1:
        return texts == segments[0]
    first, *middle, last = segments
    if texts[: len(first)] != first or len(texts) < len(first) + len(last):
        return False
    if last and texts[len(texts) - len(last) :] != last:
        return False
    return _contains_in_order(texts[len(first) : len(texts) - len(last)], middle)


def _contains_in_order(texts: list[str], segments: list[list[str]]) -> bool:
    position = 0
    for segment in segments:
        position = _find(texts, segment, position)
        if position < 0:
            return False
        position += len(segment)
    return True


def _find(texts: list[str], segment: list[str], start: int) -> int:
    for index in range(start, len(texts) - len(segment) + 1):
        if texts[index : index + len(segment)] == segment:
            return index
    return -1


def _match_unnamed(
    gated: list[Declaration], found: list[Declaration], file: str
) -> tuple[list[Declaration], list[LeanFinding]]:
    """Pair the skeleton's unnamed instances and examples with the candidate's, by statement.

    Returns the candidate declarations left unpaired (new helpers) and the findings.
    """
    left = list(found)
    findings: list[LeanFinding] = []
    for original in gated:
        twin = next(
            (d for d in left if d.name is None and statement_text(d) == statement_text(original)),
            None,
        )
        line = original.keyword_token.line
        if twin is None:
            message = f"the unnamed `{original.kind}` at skeleton line {line} is missing or changed"
            findings.append(_at(file, None, Rule.DECLARATION_REMOVED, message))
            continue
        left.remove(twin)
        if not fills_holes(original.body, twin.body) or original.terminator != twin.terminator:
            message = f"the unnamed `{original.kind}` from skeleton line {line} changed"
            findings.append(_at(file, twin.keyword_token, Rule.DECLARATION_CHANGED, message))
    return left, findings


def _order_findings(
    gated: list[Declaration], found: list[Declaration], file: str
) -> Iterator[LeanFinding]:
    wanted = [d.name for d in gated if d.name is not None]
    seen: list[str] = []
    for declaration in found:
        if (
            declaration.name is not None
            and declaration.name in wanted
            and declaration.name not in seen
        ):
            seen.append(declaration.name)
    expected = [name for name in wanted if name in seen]
    if seen != expected:
        moved = next(a for a, b in zip(seen, expected, strict=True) if a != b)
        token = next(d.keyword_token for d in found if d.name == moved)
        yield _at(file, token, Rule.DECLARATION_REORDERED, f"`{moved}` moved from its gated place")


def _helper_findings(
    gated: list[Declaration], found: list[Declaration], file: str
) -> Iterator[LeanFinding]:
    names = {d.name for d in gated}
    used = _statement_words(gated)
    for declaration in found:
        if declaration.name in names:
            continue
        where = declaration.keyword_token
        if declaration.kind not in HELPER_KINDS:
            message = f"a new `{declaration.kind}` can change what gated statements mean"
            yield _at(file, where, Rule.HELPER_NOT_ALLOWED, message)
        elif declaration.name and ident_parts(declaration.name)[-1] in used:
            message = f"helper `{declaration.name}` shares a name used in a gated statement"
            yield _at(file, where, Rule.HELPER_NOT_ALLOWED, message)


def _statement_words(gated: list[Declaration]) -> set[str]:
    """Every name component that occurs in a gated statement (after the declared name)."""
    words: set[str] = set()
    for declaration in gated:
        for token in declaration.statement[2:]:
            if token.kind is Kind.IDENT:
                words.update(ident_parts(token.text))
    return words

"""Reading the Lean evidence from text: declarations, binders, hygiene, gated skeletons.

Everything is recomputed from the Lean file itself (the fingerprint of the statement in the
file, its binders, the hygiene scan), so a record that says "fingerprint ok" or "clean" is
never trusted on its word.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from paperlint.lean import compose
from paperlint.lean.compose import parse_declaration
from paperlint.lean.declarations import Declaration, declarations
from paperlint.lean.findings import LeanFinding, Rule
from paperlint.lean.fingerprint import normalize_statement
from paperlint.lean.hygiene import imports, is_library, scan_text
from paperlint.lean.skeleton import check_skeleton

# Names the drafter gives to inputs that are not the paper's own hypotheses (docs/design.md §5).
CONDITION_PREFIXES = ("h_cite_", "h_asserted_", "h_clause_", "h_mathlib_", "h_missing_")
_OPEN = "([{⦃⟨"
_CLOSE = ")]}⦄⟩"


@dataclass(frozen=True)
class DeclaredBinder:
    name: str
    type: str  # normalised: comments dropped, whitespace collapsed
    bracket: str  # "(", "{", "[", "⦃"


def named(text: str, name: str) -> list[Declaration]:
    """Declarations of `text` called `name` (or `<namespace>.name`)."""
    return [
        d
        for d in declarations(text)
        if d.name is not None and (d.name == name or d.name.endswith("." + name))
    ]


def source_of(text: str, declaration: Declaration) -> str:
    """The declaration's own text, including any `open … in` prefixes."""
    start = declaration.prefixes[0].start if declaration.prefixes else declaration.command.start
    return text[start : declaration.command.end]


def statement_fingerprint(text: str, declaration: Declaration) -> str:
    """The same fingerprint the gate recorded (`compose.fingerprint`), from the file's text."""
    return compose.fingerprint(source_of(text, declaration))


def squash(text: str) -> str:
    """Comments dropped and all whitespace removed: spacing never decides a comparison."""
    return re.sub(r"\s+", "", normalize_statement(text))


def binders_of(declaration_text: str) -> list[DeclaredBinder]:
    """The bracketed binders of one declaration, one entry per bound name."""
    parsed = parse_declaration(declaration_text)
    if parsed is None:
        return []
    found: list[DeclaredBinder] = []
    for bracket, inner in _groups(parsed.binders):
        colon = _top_colon(inner)
        if colon is None:
            continue  # an instance binder `[Foo α]` names nothing
        kind = normalize_statement(inner[colon + 1 :])
        for name in inner[:colon].split():
            found.append(DeclaredBinder(name=name, type=kind, bracket=bracket))
    return found


def _groups(binders: str) -> list[tuple[str, str]]:
    groups: list[tuple[str, str]] = []
    depth = 0
    start = 0
    for index, ch in enumerate(binders):
        if ch in _OPEN:
            if depth == 0:
                start = index
            depth += 1
        elif ch in _CLOSE:
            depth -= 1
            if depth == 0:
                groups.append((binders[start], binders[start + 1 : index]))
    return groups


def _top_colon(inner: str) -> int | None:
    depth = 0
    for index, ch in enumerate(inner):
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth -= 1
        elif ch == ":" and depth == 0 and not inner.startswith(":=", index):
            return index
    return None


def is_condition_shaped(name: str) -> bool:
    return name.startswith(CONDITION_PREFIXES)


def hygiene_findings(path: str, files: Mapping[str, bytes]) -> list[LeanFinding]:
    """Blocking hygiene findings of `path` and of every workspace Lean module it imports."""
    found: list[LeanFinding] = []
    seen: set[str] = set()
    queue = [path]
    while queue:
        current = queue.pop()
        if current in seen or current not in files:
            continue
        seen.add(current)
        text = files[current].decode("utf-8", errors="replace")
        found.extend(f for f in scan_text(text, file=current) if f.blocking)
        for ref in imports(text):
            local = "lean/" + "/".join(p.strip("«»") for p in ref.module.split(".")) + ".lean"
            if local in files:
                queue.append(local)
            elif not is_library(ref.module):
                message = f"`import {ref.module}` is neither a library nor a workspace module"
                found.append(
                    LeanFinding(
                        file=current,
                        line=ref.line,
                        col=ref.col,
                        rule=Rule.UNRESOLVED_IMPORT,
                        message=message,
                        blocking=True,
                    )
                )
    return found


def skeleton_findings(
    header: str, text: str, gated: Mapping[str, str], *, file: str
) -> list[LeanFinding]:
    """How the file departs from the gated declarations it contains, filled only at `sorry`.

    The skeleton is rebuilt from the gate's texts in the order the file declares them, so the
    check covers edited definitions, edited step statements, new instances and header changes.
    """
    present = [d.name for d in declarations(text) if d.name is not None]
    chosen = [gated[n] for n in dict.fromkeys(present) if n in gated]
    skeleton = header.strip() + "\n\n" + "\n\n".join(chosen) + "\n"
    return [
        f for f in check_skeleton(skeleton, text, file=file, include_hygiene=False) if f.blocking
    ]


def trivial_definitions(texts: Iterable[str]) -> list[str]:
    """Names of Prop-valued definitions whose body is just `True` (a statement about them is
    vacuous)."""
    names: list[str] = []
    for text in texts:
        parsed = parse_declaration(text)
        if parsed is None or parsed.keyword not in ("def", "abbrev"):
            continue
        body = squash(parsed.body)
        if squash(parsed.type).endswith("Prop") and re.fullmatch(r"(fun.*=>)?True", body):
            names.append(parsed.name)
    return names


_RELATION = re.compile(r"^(?P<a>.+?)(?P<op><=|≤|<|>=|≥|>|=|≠)(?P<b>.+)$")


def contradictions(binders: Iterable[DeclaredBinder]) -> list[str]:
    """Pairs (or single) hypotheses that contradict on their face: `x < 0` and `0 < x`,
    `x < x`, `a ≠ a`, `False`. A syntactic probe; the Lean vacuity probe goes further."""
    facts: list[tuple[str, str, str, str]] = []
    problems: list[str] = []
    for binder in binders:
        kind = squash(binder.type)
        if kind == "False":
            problems.append(f"{binder.name} : False")
            continue
        match = _RELATION.match(kind)
        if match is None:
            continue
        a, op, b = _oriented(match["a"], match["op"], match["b"])
        if a == b and op in ("<", "≠"):
            problems.append(f"{binder.name} : {binder.type}")
        facts.append((binder.name, a, op, b))
    for i, (n1, a1, o1, b1) in enumerate(facts):
        for n2, a2, o2, b2 in facts[i + 1 :]:
            if a1 == b2 and b1 == a2 and "<" in (o1, o2) and {o1, o2} <= {"<", "≤"}:
                problems.append(f"{n1} and {n2} order the same two terms both ways, one strictly")
            if (a1, b1) in ((a2, b2), (b2, a2)) and {o1, o2} == {"=", "≠"}:
                problems.append(f"{n1} and {n2} say `=` and `≠` of the same terms")
    return problems


def _oriented(a: str, op: str, b: str) -> tuple[str, str, str]:
    """Relations as `<`, `≤`, `=`, `≠` only: `a > b` becomes `b < a`."""
    op = {"<=": "≤", ">=": "≥"}.get(op, op)
    if op in (">", "≥"):
        return b, "<" if op == ">" else "≤", a
    return a, op, b

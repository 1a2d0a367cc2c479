"""What Lean itself says an answer declared: the REPL's `declarations` output (fork v1.3.x).

With `"declarations": true` the REPL that lean-interact runs (`augustepoiroux/repl`,
`REPL/JSON.lean` `DeclarationInfo`, filled by `REPL/Extract/Declaration.lean`) returns, per
Command, one object for every `Command.declaration` node of the info trees, macro expansions
included:

    {"name": "main", "fullName": "Paper.main", "kind": "theorem",
     "modifiers": {"visibility": "regular", "computeKind": "regular", "recKind": "default",
                   "isProtected": false, "isUnsafe": false, "attributes": ["simp"],
                   "docString": null},
     "range": {"synthetic": false, "start": {"line": 3, "column": 0},
               "finish": {"line": 4, "column": 9}},
     "pp": "...", "scope": {...}, "signature": {...}, "binders": ..., "type": ..., "value": ...}

`kind` is the last component of the syntax kind: `theorem` (also for Mathlib's `lemma`, a
macro to it), `definition`, `abbrev`, `opaque`, `axiom`, `inductive`, `classInductive`,
`instance`, `example`, `structure`. A `notation` or `macro` shows as the `definition`s it
expands to (`computeKind: "meta"`). The upstream REPL ignores the flag; then there is no list
and the text scan (`paperlint.lean.answer`) stands alone.

This module reads that list into typed records and checks an answer against it: every
declaration Lean parsed must be one the text scan saw, of an allowed kind, and the target must
be among them as a theorem. A disagreement is a refusal, so a construct the lexer-level scan
cannot see (a macro that expands to an instance, a declaration hidden from the splitter) is
still caught by Lean's own parse.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from paperlint.lean.declarations import declarations

# What an answer may declare, by Lean's kind; definitions only where the text scan (which
# checks the gate's approval by name) saw them too.
ANSWER_KINDS = frozenset({"theorem", "definition", "abbrev"})
ANSWER_ATTRIBUTES = frozenset({"simp"})  # as `paperlint.lean.answer.ATTRIBUTES`
_COMPUTE_KINDS = frozenset({"regular", "noncomputable"})


class DeclaredByLean(BaseModel):
    """One entry of the REPL's `declarations` list, the parts paperlint uses."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    full_name: str
    kind: str
    line: int = 0  # 1-based, of the checked text (0: unknown)
    end_line: int = 0
    attributes: tuple[str, ...] = ()
    visibility: str = "regular"
    compute_kind: str = "regular"
    rec_kind: str = "default"
    is_unsafe: bool = False
    type_pp: str | None = None

    def matches(self, name: str) -> bool:
        """`name` (as queried or as written, maybe namespace-relative) names this one."""
        name = name.removeprefix("_root_.")
        return name in (self.full_name, self.name) or self.full_name.endswith("." + name)


def parse_declarations(
    raw: Mapping[str, Any], *, prepended_lines: int = 0
) -> tuple[DeclaredByLean, ...] | None:
    """The response's `declarations`, or None when it has none (upstream REPL, flag off, or a
    command that declares nothing: the REPL omits empty lists, so the two look alike).

    An empty list is None too: lean-interact's `CommandResponse` defaults the field to `[]`,
    so its dump of an upstream answer carries `"declarations": []`, which says nothing.
    Raises ValueError on an entry that is not shaped like the fork's `DeclarationInfo`."""
    entries = raw.get("declarations")
    if entries is None or entries == []:
        return None
    if not isinstance(entries, list):
        raise ValueError(f"`declarations` is not a list: {type(entries).__name__}")
    return tuple(_one(entry, prepended_lines) for entry in entries)


def _one(entry: object, prepended_lines: int) -> DeclaredByLean:
    if not isinstance(entry, Mapping):
        raise ValueError(f"a declaration is not an object: {entry!r}"[:200])
    name, full_name, kind = entry.get("name"), entry.get("fullName"), entry.get("kind")
    if not (isinstance(name, str) and isinstance(full_name, str) and isinstance(kind, str)):
        raise ValueError("a declaration lacks `name`, `fullName` or `kind`")
    modifiers = entry.get("modifiers")
    modifiers = {} if modifiers is None else modifiers
    if not isinstance(modifiers, Mapping):
        raise ValueError("a declaration's `modifiers` is not an object")
    attributes = modifiers.get("attributes")
    attributes = [] if attributes is None else attributes
    if not isinstance(attributes, list) or not all(isinstance(a, str) for a in attributes):
        raise ValueError("a declaration's `attributes` is not a list of strings")
    start, finish = _range(entry.get("range"))
    declared_type = entry.get("type")
    type_pp = declared_type.get("pp") if isinstance(declared_type, Mapping) else None
    return DeclaredByLean(
        name=name,
        full_name=full_name,
        kind=kind,
        line=max(start - prepended_lines, 0) if start else 0,
        end_line=max(finish - prepended_lines, 0) if finish else 0,
        attributes=tuple(" ".join(a.split()) for a in attributes),
        visibility=str(modifiers.get("visibility", "regular")),
        compute_kind=str(modifiers.get("computeKind", "regular")),
        rec_kind=str(modifiers.get("recKind", "default")),
        is_unsafe=modifiers.get("isUnsafe") is True,
        type_pp=type_pp if isinstance(type_pp, str) else None,
    )


def _range(value: object) -> tuple[int, int]:
    if not isinstance(value, Mapping):
        return 0, 0
    lines = []
    for key in ("start", "finish"):
        pos = value.get(key)
        line = pos.get("line") if isinstance(pos, Mapping) else None
        lines.append(line if isinstance(line, int) else 0)
    return lines[0], lines[1]


def answer_problems(
    declared: Sequence[DeclaredByLean], candidate: str, *, target: str | None = None
) -> list[str]:
    """Where Lean's parse of a model's answer breaks the answer rules ([] when none).

    - every declaration Lean parsed is one the text scan found (by name);
    - each is a theorem, or a definition/abbrev the text scan saw (the gate's approval is
      checked there), not unsafe, not partial, not meta, with no attribute but `simp`;
    - `target`, when given, is declared exactly once, as a theorem.
    """
    seen = [d.name for d in declarations(candidate) if d.name]
    problems = []
    for decl in declared:
        where = f"line {decl.line}: " if decl.line else ""
        label = f"{decl.kind} {decl.full_name}"
        if not any(decl.matches(name) for name in seen):
            problems.append(f"{where}Lean parsed `{label}`, which the answer's text does not show")
        if decl.kind not in ANSWER_KINDS:
            problems.append(f"{where}`{label}`: an answer may only add theorems and lemmas")
        extra = [a for a in decl.attributes if a not in ANSWER_ATTRIBUTES]
        if extra:
            problems.append(f"{where}`{label}` carries attributes {extra}")
        if decl.is_unsafe or decl.rec_kind != "default" or decl.compute_kind not in _COMPUTE_KINDS:
            problems.append(f"{where}`{label}` is unsafe, partial or meta code")
    if target is not None:
        hits = [d for d in declared if d.matches(target)]
        if len(hits) != 1:
            problems.append(f"Lean's parse declares {len(hits)} declarations named {target}")
        elif hits[0].kind != "theorem":
            problems.append(f"{target} is a {hits[0].kind} in Lean's parse, not a theorem")
    return problems


# The text keyword of a declaration -> the kind the REPL reports for it.
LEAN_KIND = {"theorem": "theorem", "lemma": "theorem", "def": "definition", "abbrev": "abbrev",
             "instance": "instance", "example": "example", "structure": "structure",
             "inductive": "inductive", "axiom": "axiom", "opaque": "opaque"}  # fmt: skip


def statement_problem(declared: Sequence[DeclaredByLean] | None, text: str) -> str:
    """Why Lean's parse of a drafted file disagrees with its text ("" when it agrees or when
    the REPL gave no list): each declaration the text shows, found by name among those Lean
    reports, must have the kind its keyword says, and Lean may declare nothing else."""
    if declared is None:
        return ""
    written = [d for d in declarations(text) if d.name]
    problems = []
    for decl in written:
        assert decl.name is not None  # filtered above
        hits = [d for d in declared if d.matches(decl.name)]
        want = LEAN_KIND.get(decl.kind)
        if len(hits) != 1:
            problems.append(f"Lean's parse declares {len(hits)} declarations named {decl.name}")
        elif want is not None and hits[0].kind != want:
            problems.append(f"{decl.name} is a {hits[0].kind} in Lean's parse, not a {want}")
    names = [d.name for d in written if d.name]
    extra = [d for d in declared if d.kind != "example" and not any(d.matches(n) for n in names)]
    problems += [
        f"Lean parsed `{d.kind} {d.full_name}`, which the text does not show" for d in extra
    ]
    return "; ".join(problems)

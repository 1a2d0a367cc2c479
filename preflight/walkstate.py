"""Records the document walk produces, in flat-text offsets (mapped to lines later)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from paperlint.preflight.declarations import Registry
from paperlint.preflight.draft import DraftMacro, Severity
from paperlint.preflight.macros import Definition


@dataclass(slots=True)
class RawResult:
    """A result as the walk found it, in flat-text offsets."""

    env: str
    title: str
    number: str | None
    note: str | None
    begin: int
    body_start: int
    end: int = -1
    body_end: int = -1
    labels: list[str] = field(default_factory=list)
    parent: int | None = None
    in_proof: int | None = None
    restates: int | None = None
    lean: list[str] = field(default_factory=list)
    leanok: bool = False
    mathlibok: bool = False


@dataclass(slots=True)
class RawProof:
    """A proof environment as the walk found it, in flat-text offsets."""

    env: str
    note: str | None
    begin: int
    body_start: int
    end: int = -1
    body_end: int = -1
    leanok: bool = False


@dataclass(slots=True)
class Owner:
    """What a `\\label` written now refers to: its printed number and its owner."""

    number: str
    kind: str = "other"  # "result", "equation", "item", "section", "other"
    result: int | None = None


@dataclass(slots=True)
class Frame:
    """An open environment on the walk's stack."""

    name: str
    begin: int
    saved: Owner
    result: int | None = None
    proof: int | None = None
    restore: dict[str, str] = field(default_factory=dict)
    end_code: str | None = None
    # "result"/"proof" -> the innermost one at or below this frame; the frames below a frame
    # never change while it is on the stack, so this keeps deep nesting linear.
    enclosing: dict[str, int | None] = field(default_factory=dict)
    # the environment family (envfamilies.FAMILIES) whose close runs at the `\end`
    family: str = "other"
    # `\\the<counter>` templates redefined inside, restored at the `\\end` (a TeX group);
    # made when first needed
    restore_the: dict[str, str | None] | None = None


class Problem(NamedTuple):
    """Something the walk could not model or found wrong, at a flat-text offset (None: the
    whole project); it becomes a `Diagnostic` once offsets are mapped to files and lines."""

    pos: int | None
    severity: Severity
    code: str
    message: str


@dataclass
class WalkOutput:
    """Everything the walk records, for the inventory to assemble."""

    registry: Registry
    results: list[RawResult] = field(default_factory=list)
    proofs: list[RawProof] = field(default_factory=list)
    labels: dict[str, Owner] = field(default_factory=dict)
    macros: list[tuple[int, DraftMacro]] = field(default_factory=list)
    bib_files: list[tuple[int, str]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    label_positions: dict[str, int] = field(default_factory=dict)
    # the user macros defined when the walk ended (name without its backslash)
    definitions: dict[str, Definition] = field(default_factory=dict)

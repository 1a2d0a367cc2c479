"""Records the document walk produces, in flat-text offsets (mapped to lines later)."""

from __future__ import annotations

from typing import NamedTuple

from paperlint.preflight.declarations import Registry
from paperlint.preflight.draft import DraftMacro, Severity
from paperlint.preflight.macros import Definition
from paperlint.preflight.record import Record


class RawResult(Record):
    """A result as the walk found it, in flat-text offsets."""

    __slots__ = (
        "env",
        "title",
        "number",
        "note",
        "begin",
        "body_start",
        "end",
        "body_end",
        "labels",
        "parent",
        "in_proof",
        "restates",
        "lean",
        "leanok",
        "mathlibok",
    )
    env: str
    title: str
    number: str | None
    note: str | None
    begin: int
    body_start: int
    end: int
    body_end: int
    labels: list[str]
    parent: int | None
    in_proof: int | None
    restates: int | None
    lean: list[str]
    leanok: bool
    mathlibok: bool

    def __init__(
        self,
        env: str,
        title: str,
        number: str | None,
        note: str | None,
        begin: int,
        body_start: int,
        end: int = -1,
        body_end: int = -1,
        labels: list[str] | None = None,
        parent: int | None = None,
        in_proof: int | None = None,
        restates: int | None = None,
        lean: list[str] | None = None,
        leanok: bool = False,
        mathlibok: bool = False,
    ) -> None:
        self.env = env
        self.title = title
        self.number = number
        self.note = note
        self.begin = begin
        self.body_start = body_start
        self.end = end
        self.body_end = body_end
        self.labels = [] if labels is None else labels
        self.parent = parent
        self.in_proof = in_proof
        self.restates = restates
        self.lean = [] if lean is None else lean
        self.leanok = leanok
        self.mathlibok = mathlibok


class RawProof(Record):
    """A proof environment as the walk found it, in flat-text offsets."""

    __slots__ = ("env", "note", "begin", "body_start", "end", "body_end", "leanok")
    env: str
    note: str | None
    begin: int
    body_start: int
    end: int
    body_end: int
    leanok: bool

    def __init__(
        self,
        env: str,
        note: str | None,
        begin: int,
        body_start: int,
        end: int = -1,
        body_end: int = -1,
        leanok: bool = False,
    ) -> None:
        self.env = env
        self.note = note
        self.begin = begin
        self.body_start = body_start
        self.end = end
        self.body_end = body_end
        self.leanok = leanok


class Owner(Record):
    """What a `\\label` written now refers to: its printed number and its owner."""

    __slots__ = ("number", "kind", "result")
    number: str
    kind: str  # "result", "equation", "item", "section", "other"
    result: int | None

    def __init__(self, number: str, kind: str = "other", result: int | None = None) -> None:
        self.number = number
        self.kind = kind
        self.result = result


class Frame(Record):
    """An open environment on the walk's stack."""

    __slots__ = (
        "name",
        "begin",
        "saved",
        "result",
        "proof",
        "restore",
        "end_code",
        "enclosing",
        "family",
        "restore_the",
    )
    name: str
    begin: int
    saved: Owner
    result: int | None
    proof: int | None
    restore: dict[str, str]
    end_code: str | None
    # "result"/"proof" -> the innermost one at or below this frame; the frames below a frame
    # never change while it is on the stack, so this keeps deep nesting linear.
    enclosing: dict[str, int | None]
    # the environment family (envfamilies.FAMILIES) whose close runs at the `\end`
    family: str
    # `\\the<counter>` templates redefined inside, restored at the `\\end` (a TeX group);
    # made when first needed
    restore_the: dict[str, str | None] | None

    def __init__(
        self,
        name: str,
        begin: int,
        saved: Owner,
        result: int | None = None,
        proof: int | None = None,
        restore: dict[str, str] | None = None,
        end_code: str | None = None,
        enclosing: dict[str, int | None] | None = None,
        family: str = "other",
        restore_the: dict[str, str | None] | None = None,
    ) -> None:
        self.name = name
        self.begin = begin
        self.saved = saved
        self.result = result
        self.proof = proof
        self.restore = {} if restore is None else restore
        self.end_code = end_code
        self.enclosing = {} if enclosing is None else enclosing
        self.family = family
        self.restore_the = restore_the


class Problem(NamedTuple):
    """Something the walk could not model or found wrong, at a flat-text offset (None: the
    whole project); it becomes a `Diagnostic` once offsets are mapped to files and lines."""

    pos: int | None
    severity: Severity
    code: str
    message: str


class WalkOutput(Record):
    """Everything the walk records, for the inventory to assemble."""

    __slots__ = (
        "registry",
        "results",
        "proofs",
        "labels",
        "macros",
        "bib_files",
        "problems",
        "label_positions",
        "definitions",
    )
    registry: Registry
    results: list[RawResult]
    proofs: list[RawProof]
    labels: dict[str, Owner]
    macros: list[tuple[int, DraftMacro]]
    bib_files: list[tuple[int, str]]
    problems: list[Problem]
    label_positions: dict[str, int]
    # the user macros defined when the walk ended (name without its backslash)
    definitions: dict[str, Definition]

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self.results = []
        self.proofs = []
        self.labels = {}
        self.macros = []
        self.bib_files = []
        self.problems = []
        self.label_positions = {}
        self.definitions = {}

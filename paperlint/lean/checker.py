"""The trusted checker's record (`paperlint.checker/1`) and the verdict it supports (issue #25).

The checker program (`lean-project/PaperLint/Checker.lean`, docs/checker.md) runs in its own
sandboxed process, after the untrusted proof module was compiled, and writes *facts*: the
reference statement as Lean elaborated it, whether the candidate's target has exactly that
type, the axioms it collected itself, the kernel replay's result, every constant and every
environment-extension entry the local modules add. This module parses that record strictly
(any unknown or missing field is a failure, never a pass) and derives the findings from the
facts with the allowlists below, so `validate` re-derives the same verdict from the same
record without Lean. Nothing the candidate printed is ever read.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Collection, Iterable, Sequence
from enum import StrEnum
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from paperlint.domain import STANDARD_AXIOMS
from paperlint.lean.modules import GATED, PROOF, REFERENCE, ROOT, CheckerRequest, is_proof_module

SCHEMA: Final = "paperlint.checker/1"
RECORD_FILE: Final = "checker.json"  # audits/<id>/checker.json (the final check's record)
GATE_RECORD_FILE: Final = "reference.json"  # audits/<id>/reference-<round>.json at the gate
COUNTEREXAMPLE_FILE: Final = "counterexample.json"  # audits/<id>/: an ERROR's counterexample

Kind = Literal[
    "axiom", "def", "theorem", "opaque", "quot", "inductive", "constructor", "recursor"
]  # fmt: skip
Binder = Literal["default", "implicit", "strict_implicit", "inst_implicit"]


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class Hypothesis(_Strict):
    """One leading binder of the reference statement: the theorem's named hypotheses."""

    name: str
    type: str
    binder: Binder


class ConstantRef(_Strict):
    """A constant the reference statement mentions, and the module it comes from (None: the
    checker's environment does not know it)."""

    name: str
    module: str | None


class ElaboratedStatement(_Strict):
    """A declaration's statement as Lean elaborated it."""

    name: str
    kind: Kind
    levels: tuple[str, ...]
    type: str  # `Expr.dbgToString`
    type_hash: str  # `Expr.hash`, a decimal UInt64


class Reference(ElaboratedStatement):
    hypotheses: tuple[Hypothesis, ...]
    constants: tuple[ConstantRef, ...]
    imports: tuple[str, ...]  # the reference module's imports


class CandidateStatement(ElaboratedStatement):
    module: str | None
    type_equal: bool  # `Expr.equal` with the reference type, levels renamed


class AuxiliaryMatch(_Strict):
    """A constant of the reference module that its statement mentions (an auxiliary Lean made
    while elaborating it), compared with the candidate's constant of that name."""

    name: str
    same: bool


class Added(_Strict):
    """A constant one of the local (paperlint-built) modules adds."""

    name: str
    module: str
    kind: Kind
    unsafe: bool
    partial: bool


class ExtensionEntries(_Strict):
    module: str
    extension: str
    count: int = Field(ge=1)


class Replay(_Strict):
    ok: bool
    error: str | None
    constants: int = Field(ge=0)


class CheckerRecord(_Strict):
    schema_: Literal["paperlint.checker/1"] = Field(alias="schema")
    lean: str
    mode: Literal["reference", "compare"]
    target: str
    reference_module: str
    candidate_module: str | None
    reference: Reference | None
    candidate: CandidateStatement | None
    auxiliaries: tuple[AuxiliaryMatch, ...]
    axioms: tuple[str, ...] | None
    unknown: tuple[str, ...]  # constants met while collecting axioms that no module has
    replay: Replay | None
    added: tuple[Added, ...]
    entries: tuple[ExtensionEntries, ...]
    error: str | None


def parse_record(raw: Any) -> tuple[CheckerRecord | None, str]:
    """(record, "") or (None, why): strict (no coercion: `"yes"` is not a boolean), fail-closed."""
    text = raw
    if not isinstance(raw, str | bytes):
        try:
            text = json.dumps(raw)
        except (TypeError, ValueError) as exc:
            return None, f"the checker's record is not JSON data: {exc}"[:300]
    try:
        data = json.loads(text)
    except ValueError as exc:
        return None, f"the checker's output is not JSON: {exc}"[:300]
    if not isinstance(data, dict):
        return None, "the checker's output is not a JSON object"
    try:
        return CheckerRecord.model_validate_json(text), ""
    except ValidationError as exc:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": str(exc)}
        where = ".".join(str(p) for p in first["loc"]) or "record"
        return None, f"the checker's record is malformed at {where}: {first['msg']}"[:300]


def record_json(record: CheckerRecord) -> dict[str, Any]:
    return record.model_dump(mode="json", by_alias=True)


# --- the policy --------------------------------------------------------------------------------


class CheckerRule(StrEnum):
    """Why a checker record does not support a verdict (a contract: never rename)."""

    CHECKER_ERROR = "checker-error"
    RECORD_MISMATCH = "checker-record-mismatch"  # the record answers another request
    TARGET_MISSING = "target-missing"
    TARGET_NOT_THEOREM = "target-not-theorem"
    TARGET_MODULE = "target-module"  # the target is not declared by the candidate module
    STATEMENT_DIFFERS = "statement-differs"  # the target's type is not the reference's
    STATEMENT_UNTRUSTED = "statement-untrusted-constant"  # a proof module reaches the statement
    REFERENCE_UNTRUSTED = "reference-imports-proof"
    AXIOMS_UNKNOWN = "axioms-unknown"
    AXIOM_NOT_ALLOWED = "axiom-not-allowed"
    REPLAY_FAILED = "kernel-replay-failed"
    ADDED_AXIOM = "added-axiom"
    ADDED_OPAQUE = "added-opaque"
    ADDED_UNSAFE = "added-unsafe"
    ADDED_PARTIAL = "added-partial"
    ADDED_DEFINITION = "added-definition"  # a definition no gate approved
    ADDED_INDUCTIVE = "added-inductive"
    ADDED_INSTANCE = "added-instance"
    DUPLICATE = "duplicate-constant"  # two local declarations of one name, not all theorems
    IMPLEMENTATION = "implementation-attribute"  # implemented_by, extern, csimp, init
    SYNTAX = "syntax-registration"  # parser, macro, elaborator, tactic, delaborator
    EXTENSION = "extension-entry"  # any other extension a proof module may not touch


# Extensions a proof module (theorems, their compiler auxiliaries, `@[simp]` lemmas) leaves
# entries in; every name was checked against the symbols of Lean 4.35.0's shared library
# (tests/lean_oracle/test_checker_api.py). Anything else in a proof module is a finding.
PROOF_EXTENSIONS: Final = frozenset(
    {
        "Lean.declRangeExt",
        "Lean.docStringExt",
        "_private.Lean.Namespace.0.Lean.namespacesExt",
        "_private.Lean.Util.CollectAxioms.0.Lean.exportedAxiomsExt",  # never read: see docs
        "_private.Lean.Compiler.ModPkgExt.0.Lean.modPkgExt",
        "_private.Lean.ExtraModUses.0.Lean.extraModUses",
        "Lean.Meta.Match.Extension.extension",
        "Lean.Meta.eqnsExt",
        "Lean.Meta.simpExtension",
        "Lean.protectedExt",
        "Lean.noncomputableExt",
        "Lean.Compiler.inlineAttrs",
        "Lean.Compiler.LCNF.baseExt",
        "Lean.Compiler.LCNF.monoExt",
        "Lean.Compiler.LCNF.monoTypeExt",
        "Lean.Compiler.LCNF.impureSigExt",
        "Lean.Compiler.LCNF.specExtension",
        "Lean.Compiler.LCNF.UnreachableBranches.functionSummariesExt",
        "Lean.IR.declMapExt",
        "reducibilityCore",
        "reducibilityExtra",
    }
)
# Extensions whose entries are findings wherever they appear, even in gated modules.
INSTANCE_EXTENSIONS: Final = frozenset(
    {"Lean.Meta.instanceExtension", "Lean.Meta.defaultInstanceExtension", "Lean.classExtension"}
)
IMPLEMENTATION_EXTENSIONS: Final = frozenset(
    {
        "Lean.Compiler.implementedByAttr",
        "Lean.externAttr",
        "Lean.Compiler.CSimp.ext",
        "Lean.regularInitAttr",
        "Lean.builtinInitAttr",
    }
)
SYNTAX_EXTENSIONS: Final = frozenset(
    {
        "Lean.Parser.parserExtension",
        "Lean.Elab.macroAttribute",
        "Lean.Elab.Term.termElabAttribute",
        "Lean.Elab.Command.commandElabAttribute",
        "Lean.Elab.Tactic.tacticElabAttribute",
        "Lean.PrettyPrinter.Delaborator.delabAttribute",
        "Lean.PrettyPrinter.Delaborator.appUnexpanderAttribute",
        "Lean.Meta.Simp.simprocExtension",
        "Lean.Meta.Simp.simprocDeclExt",
    }
)
_AUXILIARY = re.compile(r"(?:^|\.)(?:_.*|match_\d+|proof_\d+|eq_\d+|eq_def|congr_simp)$")


class CheckerFinding(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    rule: CheckerRule
    subject: str  # the constant, the extension entry, the module, or the target
    message: str

    def render(self) -> str:
        return f"{self.rule.value}: {self.message}"


class Judgement(BaseModel):
    """What a checker record supports: passed, with the statement's hash and conditions."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    findings: tuple[CheckerFinding, ...]
    statement_hash: str | None
    axioms: tuple[str, ...] | None
    hypotheses: tuple[str, ...]

    @property
    def passed(self) -> bool:
        return not self.findings


def statement_hash(statement: ElaboratedStatement) -> str:
    """The locked identity of an elaborated statement: sha256 over its levels, its printed
    type and Lean's own hash of it."""
    canonical = json.dumps(
        {"levels": list(statement.levels), "type": statement.type, "hash": statement.type_hash},
        sort_keys=True,
        ensure_ascii=False,
    )
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def judge(
    record: CheckerRecord,
    request: CheckerRequest,
    *,
    allowed_axioms: Collection[str] = STANDARD_AXIOMS,
) -> Judgement:
    """Every finding the record's facts show, for the request it answers (pure)."""
    found = list(_request_findings(record, request))
    if record.error is not None:
        found.append(_finding(CheckerRule.CHECKER_ERROR, record.target, record.error[:300]))
    found += _reference_findings(record)
    if record.mode == "compare":
        found += _candidate_findings(record, request)
        found += _axiom_findings(record, allowed_axioms)
    found += _replay_findings(record)
    found += added_findings(record.added, approved=request.approved, target=request.target)
    found += entry_findings(record.entries)
    reference = record.reference
    return Judgement(
        findings=tuple(found),
        statement_hash=statement_hash(reference) if reference is not None else None,
        axioms=record.axioms,
        hypotheses=tuple(h.name for h in reference.hypotheses) if reference else (),
    )


def _finding(rule: CheckerRule, subject: str, message: str) -> CheckerFinding:
    return CheckerFinding(rule=rule, subject=subject, message=message)


def _request_findings(record: CheckerRecord, request: CheckerRequest) -> Iterable[CheckerFinding]:
    asked = (request.mode, request.target, request.reference_module, request.candidate_module)
    answered = (record.mode, record.target, record.reference_module, record.candidate_module)
    if asked != answered:
        yield _finding(
            CheckerRule.RECORD_MISMATCH,
            record.target,
            f"the record answers {answered}, not the request {asked}",
        )


def _reference_findings(record: CheckerRecord) -> Iterable[CheckerFinding]:
    reference = record.reference
    if reference is None:
        if record.error is None:
            yield _finding(CheckerRule.CHECKER_ERROR, record.target, "the record has no reference")
        return
    for name in reference.imports:
        if is_proof_module(name):
            yield _finding(
                CheckerRule.REFERENCE_UNTRUSTED,
                name,
                f"the reference module imports proof module {name}",
            )
    for constant in reference.constants:
        module = constant.module
        if module is None or is_proof_module(module):
            where = "no module" if module is None else f"proof module {module}"
            yield _finding(
                CheckerRule.STATEMENT_UNTRUSTED,
                constant.name,
                f"the statement mentions `{constant.name}` from {where}",
            )
    for aux in record.auxiliaries:
        if not aux.same:
            yield _finding(
                CheckerRule.STATEMENT_UNTRUSTED,
                aux.name,
                f"`{aux.name}`, which the statement mentions, differs from the reference's",
            )


def _candidate_findings(record: CheckerRecord, request: CheckerRequest) -> Iterable[CheckerFinding]:
    candidate, target = record.candidate, request.target
    if candidate is None:
        yield _finding(
            CheckerRule.TARGET_MISSING, target, f"no constant `{target}` in the candidate"
        )
        return
    if candidate.kind != "theorem":
        yield _finding(
            CheckerRule.TARGET_NOT_THEOREM,
            target,
            f"`{target}` is a {candidate.kind}, not a theorem",
        )
    if candidate.module != request.candidate_module:
        yield _finding(
            CheckerRule.TARGET_MODULE,
            target,
            f"`{target}` comes from {candidate.module}, not {request.candidate_module}",
        )
    reference = record.reference
    levels_ok = reference is not None and len(reference.levels) == len(candidate.levels)
    if not candidate.type_equal or not levels_ok:
        yield _finding(
            CheckerRule.STATEMENT_DIFFERS,
            target,
            f"the elaborated type of `{target}` is not the gated statement's",
        )


def _axiom_findings(record: CheckerRecord, allowed: Collection[str]) -> Iterable[CheckerFinding]:
    if record.axioms is None:
        yield _finding(CheckerRule.AXIOMS_UNKNOWN, record.target, "the checker collected no axioms")
        return
    for name in record.unknown:
        yield _finding(
            CheckerRule.AXIOMS_UNKNOWN, name, f"`{name}` is used but no loaded module declares it"
        )
    for name in sorted(set(record.axioms) - set(allowed)):
        yield _finding(
            CheckerRule.AXIOM_NOT_ALLOWED, name, f"`{record.target}` depends on the axiom `{name}`"
        )


def _replay_findings(record: CheckerRecord) -> Iterable[CheckerFinding]:
    replay = record.replay
    if replay is None:
        if record.error is None:
            yield _finding(
                CheckerRule.REPLAY_FAILED, record.target, "no kernel replay was recorded"
            )
    elif not replay.ok:
        yield _finding(
            CheckerRule.REPLAY_FAILED,
            record.target,
            f"the kernel rejects a local constant: {(replay.error or '')[:200]}",
        )


def is_auxiliary(name: str, added: Collection[str]) -> bool:
    """A name Lean makes for a declaration (`foo.match_1`, `foo._proof_1`, `foo.eq_1`): an
    internal component, or a child of another added constant. A `private` declaration's name
    (`_private.<module>.0.foo`) is judged by what follows its prefix: a private definition the
    prover wrote is not an auxiliary."""
    if _AUXILIARY.search(_unprivate(name)):
        return True
    parent, _, _ = name.rpartition(".")
    return bool(parent) and parent in added


def _unprivate(name: str) -> str:
    if not name.startswith("_private."):
        return name
    _, zero, rest = name.partition(".0.")
    return rest if zero else name


def added_findings(
    added: Iterable[Added], *, approved: Collection[str] = (), target: str = ""
) -> list[CheckerFinding]:
    """What the local modules add: anything beyond theorems, their auxiliaries and approved
    definitions in a proof module; axioms and unchecked constants anywhere."""
    items = list(added)
    names = {a.name for a in items}
    found = _duplicate_findings(items)
    for item in items:
        proof = is_proof_module(item.module)
        rule = _added_rule(item, proof=proof, approved=approved, names=names)
        if rule is not None:
            where = "proof module" if proof else "gated module"
            found.append(
                _finding(rule, item.name, f"{where} {item.module} adds {item.kind} `{item.name}`")
            )
    return found


def _duplicate_findings(items: Sequence[Added]) -> list[CheckerFinding]:
    """A name two local declarations share. The checker keeps one of them (the later module's)
    for its kernel replay, its axioms and its statement check, while Lean's importer, which
    compiled the candidate, accepts a repeated name only for theorems of one type (docs/checker.md,
    "Duplicate names"). A repeated definition therefore means the `.olean` data disagree with
    what Lean imported: a proof module shadowing a gated constant. Repeated theorems are
    harmless: the one kept is replayed, and a proof's meaning is its type."""
    by_name: dict[str, list[Added]] = {}
    for item in items:
        by_name.setdefault(item.name, []).append(item)
    found = []
    for name, copies in by_name.items():
        if len(copies) > 1 and any(c.kind != "theorem" for c in copies):
            where = ", ".join(f"{c.kind} in {c.module}" for c in copies)
            found.append(
                _finding(CheckerRule.DUPLICATE, name, f"`{name}` is declared twice: {where}")
            )
    return found


def _added_rule(
    item: Added, *, proof: bool, approved: Collection[str], names: Collection[str]
) -> CheckerRule | None:
    if item.unsafe:
        return CheckerRule.ADDED_UNSAFE
    if item.partial:
        return CheckerRule.ADDED_PARTIAL
    if item.kind == "axiom":
        return CheckerRule.ADDED_AXIOM
    if item.kind == "opaque":
        return CheckerRule.ADDED_OPAQUE
    if not proof:
        return None  # gated material: its meaning is the reference's too
    if item.kind in ("inductive", "constructor", "recursor", "quot"):
        return CheckerRule.ADDED_INDUCTIVE
    if item.kind == "def" and item.name not in approved and not is_auxiliary(item.name, names):
        return CheckerRule.ADDED_DEFINITION
    return None


def entry_findings(entries: Iterable[ExtensionEntries]) -> list[CheckerFinding]:
    """Environment-extension entries: an allowlist in proof modules; instances, implementation
    swaps and syntax are findings in proof modules, implementation and syntax anywhere."""
    found: list[CheckerFinding] = []
    for entry in entries:
        rule = _entry_rule(entry.extension, proof=is_proof_module(entry.module))
        if rule is not None:
            found.append(
                _finding(
                    rule,
                    f"{entry.module}:{entry.extension}",
                    f"{entry.module} has {entry.count} entr{'y' if entry.count == 1 else 'ies'} "
                    f"in `{entry.extension}`",
                )
            )
    return found


def _entry_rule(extension: str, *, proof: bool) -> CheckerRule | None:
    if extension in IMPLEMENTATION_EXTENSIONS:
        return CheckerRule.IMPLEMENTATION
    if extension in SYNTAX_EXTENSIONS:
        return CheckerRule.SYNTAX
    if not proof:
        return None
    if extension in INSTANCE_EXTENSIONS:
        return CheckerRule.ADDED_INSTANCE
    if extension in PROOF_EXTENSIONS:
        return None
    return CheckerRule.EXTENSION


def module_kind(name: str) -> str:
    """gated | reference | proof | trusted (Lean, Mathlib, our support library)."""
    for prefix, kind in ((GATED, "gated"), (REFERENCE, "reference"), (PROOF, "proof")):
        if name == prefix or name.startswith(prefix + "."):
            return kind
    return "local" if name.startswith(ROOT + ".") else "trusted"

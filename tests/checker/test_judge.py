"""What a checker record supports: each fact that breaks the rules is a finding with its rule
named, and the record is parsed strictly (an unknown or missing field is never a pass)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from paperlint.lean.checker import judge, parse_record, statement_hash
from tests.checker.support import GATED_MODULE, PROOF_MODULE, passing_record, request


def _judged(record: dict[str, Any], **asked: Any) -> set[tuple[str, str]]:
    parsed, why = parse_record(record)
    assert parsed is not None, why
    return {(f.rule.value, f.subject) for f in judge(parsed, request(**asked)).findings}


def _with(path: str, value: Any) -> dict[str, Any]:
    """The passing record with one nested field replaced (`a.b` or `a.0.b`)."""
    record = copy.deepcopy(passing_record())
    *parents, last = path.split(".")
    node: Any = record
    for part in parents:
        node = node[int(part)] if part.isdigit() else node[part]
    node[int(last) if last.isdigit() else last] = value
    return record


def _added(name: str, kind: str, module: str = PROOF_MODULE, **flags: bool) -> dict[str, Any]:
    record = passing_record()
    entry = {"name": name, "module": module, "kind": kind, "unsafe": False, "partial": False}
    record["added"] = [*record["added"], {**entry, **flags}]  # type: ignore[list-item]
    return record


def _twice(name: str, first: tuple[str, str], second: tuple[str, str]) -> dict[str, Any]:
    """The passing record whose local modules declare `name` twice: (kind, module) each."""
    record = passing_record()
    copies = [
        {"name": name, "module": module, "kind": kind, "unsafe": False, "partial": False}
        for kind, module in (first, second)
    ]
    record["added"] = [*record["added"], *copies]  # type: ignore[list-item]
    return record


DEPENDENCY_PROOF = "PaperlintCheck.Proof.r_lem_a_00000000"


def _entry(extension: str, module: str = PROOF_MODULE) -> dict[str, Any]:
    record = passing_record()
    entry = {"module": module, "extension": extension, "count": 1}
    record["entries"] = [*record["entries"], entry]  # type: ignore[list-item]
    return record


def test_a_passing_record_supports_the_verdict():
    parsed, _ = parse_record(json.dumps(passing_record()))
    assert parsed is not None
    verdict = judge(parsed, request())
    assert verdict.passed, verdict.findings
    assert verdict.hypotheses == ("a",)
    assert verdict.axioms == ("propext", "Classical.choice", "Quot.sound")
    assert verdict.statement_hash == statement_hash(parsed.reference)  # type: ignore[arg-type]
    assert verdict.statement_hash and verdict.statement_hash.startswith("sha256:")


CASES = [
    # (case id, record, request changes, expected finding)
    ("checker error", passing_record(error="import failed"), {}, ("checker-error", "lem_b")),
    ("another target", passing_record(target="other"), {}, ("checker-record-mismatch", "other")),
    ("another candidate module", passing_record(candidate_module="X"), {},
     ("checker-record-mismatch", "lem_b")),
    ("no target", passing_record(candidate=None), {}, ("target-missing", "lem_b")),
    ("target is a def", _with("candidate.kind", "def"), {}, ("target-not-theorem", "lem_b")),
    ("target from another module", _with("candidate.module", GATED_MODULE), {},
     ("target-module", "lem_b")),
    ("planted instance changed the type", _with("candidate.type_equal", False), {},
     ("statement-differs", "lem_b")),
    ("universe levels differ", _with("candidate.levels", ["u"]), {},
     ("statement-differs", "lem_b")),
    ("statement mentions a proof-module constant",
     _with("reference.constants.2", {"name": "instBad", "module": PROOF_MODULE}), {},
     ("statement-untrusted-constant", "instBad")),
    ("statement mentions an unknown constant",
     _with("reference.constants.2", {"name": "ghost", "module": None}), {},
     ("statement-untrusted-constant", "ghost")),
    ("a statement auxiliary differs", passing_record(
        auxiliaries=[{"name": "lem_b.match_1", "same": False}]), {},
     ("statement-untrusted-constant", "lem_b.match_1")),
    ("reference imports a proof module", _with("reference.imports.1", PROOF_MODULE), {},
     ("reference-imports-proof", PROOF_MODULE)),
    ("no axioms collected", passing_record(axioms=None), {}, ("axioms-unknown", "lem_b")),
    ("an unknown constant in the closure", passing_record(unknown=["ghost"]), {},
     ("axioms-unknown", "ghost")),
    ("sorry", passing_record(axioms=["propext", "sorryAx"]), {},
     ("axiom-not-allowed", "sorryAx")),
    ("native_decide", passing_record(axioms=["Lean.ofReduceBool"]), {},
     ("axiom-not-allowed", "Lean.ofReduceBool")),
    ("addDecl'd axiom with the statement", passing_record(axioms=["lem_b_ax", "propext"]), {},
     ("axiom-not-allowed", "lem_b_ax")),
    ("kernel replay failed", passing_record(
        replay={"ok": False, "error": "(kernel) declaration type mismatch", "constants": 3}), {},
     ("kernel-replay-failed", "lem_b")),
    ("no kernel replay", passing_record(replay=None), {}, ("kernel-replay-failed", "lem_b")),
    ("axiom in a proof module", _added("cheat", "axiom"), {}, ("added-axiom", "cheat")),
    ("axiom in a gated module", _added("cheat", "axiom", GATED_MODULE), {},
     ("added-axiom", "cheat")),
    ("opaque constant", _added("hidden", "opaque"), {}, ("added-opaque", "hidden")),
    ("unsafe definition", _added("evil", "def", unsafe=True), {}, ("added-unsafe", "evil")),
    ("partial definition", _added("loop", "def", partial=True), {}, ("added-partial", "loop")),
    ("unapproved definition", _added("helperDef", "def"), {}, ("added-definition", "helperDef")),
    ("unapproved private definition", _added("_private.PaperlintCheck.Proof.r.0.h", "def"), {},
     ("added-definition", "_private.PaperlintCheck.Proof.r.0.h")),
    ("inductive in a proof module", _added("Fake", "inductive"), {},
     ("added-inductive", "Fake")),
    ("instance in a proof module", _entry("Lean.Meta.instanceExtension"), {},
     ("added-instance", f"{PROOF_MODULE}:Lean.Meta.instanceExtension")),
    ("default instance", _entry("Lean.Meta.defaultInstanceExtension"), {},
     ("added-instance", f"{PROOF_MODULE}:Lean.Meta.defaultInstanceExtension")),
    ("implemented_by", _entry("Lean.Compiler.implementedByAttr"), {},
     ("implementation-attribute", f"{PROOF_MODULE}:Lean.Compiler.implementedByAttr")),
    ("extern in a gated module", _entry("Lean.externAttr", GATED_MODULE), {},
     ("implementation-attribute", f"{GATED_MODULE}:Lean.externAttr")),
    ("csimp", _entry("Lean.Compiler.CSimp.ext"), {},
     ("implementation-attribute", f"{PROOF_MODULE}:Lean.Compiler.CSimp.ext")),
    ("initialize", _entry("Lean.regularInitAttr"), {},
     ("implementation-attribute", f"{PROOF_MODULE}:Lean.regularInitAttr")),
    ("syntax", _entry("Lean.Parser.parserExtension"), {},
     ("syntax-registration", f"{PROOF_MODULE}:Lean.Parser.parserExtension")),
    ("macro_rules", _entry("Lean.Elab.macroAttribute"), {},
     ("syntax-registration", f"{PROOF_MODULE}:Lean.Elab.macroAttribute")),
    ("elab_rules on #print axioms", _entry("Lean.Elab.Command.commandElabAttribute"), {},
     ("syntax-registration", f"{PROOF_MODULE}:Lean.Elab.Command.commandElabAttribute")),
    ("a tactic", _entry("Lean.Elab.Tactic.tacticElabAttribute"), {},
     ("syntax-registration", f"{PROOF_MODULE}:Lean.Elab.Tactic.tacticElabAttribute")),
    ("a simproc", _entry("Lean.Meta.Simp.simprocDeclExt"), {},
     ("syntax-registration", f"{PROOF_MODULE}:Lean.Meta.Simp.simprocDeclExt")),
    ("an extension no proof needs", _entry("Lean.Meta.unificationHintExtension"), {},
     ("extension-entry", f"{PROOF_MODULE}:Lean.Meta.unificationHintExtension")),
    # A proof module's `.olean` whose constant names disagree with the names Lean's importer
    # keys them by: the checker keeps the later module's copy, so a dependency's proof module
    # replaces a gated definition the statement unfolds to.
    ("a proof module redeclares an approved gated definition",
     _twice("twice", ("def", GATED_MODULE), ("def", PROOF_MODULE)), {},
     ("duplicate-constant", "twice")),
    ("a dependency's proof module shadows a gated `where` helper",
     _twice("paperMean.go", ("def", GATED_MODULE), ("def", DEPENDENCY_PROOF)), {},
     ("duplicate-constant", "paperMean.go")),
    ("a theorem and a definition of one name",
     _twice("paperMean.spec", ("theorem", GATED_MODULE), ("def", DEPENDENCY_PROOF)), {},
     ("duplicate-constant", "paperMean.spec")),
    ("a name twice in one module",
     _twice("paperMean.go", ("def", DEPENDENCY_PROOF), ("def", DEPENDENCY_PROOF)), {},
     ("duplicate-constant", "paperMean.go")),
]  # fmt: skip


@pytest.mark.parametrize(("record", "asked", "expected"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])  # fmt: skip
def test_each_broken_fact_is_a_named_finding(record, asked, expected):
    assert expected in _judged(record, **asked)


ALLOWED = [
    ("approved definition", _added("twice", "def")),
    ("matcher auxiliary", _added("lem_b.match_1", "def")),
    ("private helper's auxiliary", _added("_private.PaperlintCheck.Proof.r.0.h._proof_1", "def")),
    ("equation lemma", _added("lem_b.eq_1", "theorem")),
    ("child of a helper", _added("lem_b._unary", "def")),
    ("inductive in a gated module", _added("Fancy", "inductive", GATED_MODULE)),
    ("instance in a gated module", _entry("Lean.Meta.instanceExtension", GATED_MODULE)),
    ("simp lemma", _entry("Lean.Meta.simpExtension")),
    ("docstring", _entry("Lean.docStringExt")),
    ("unknown extension in a gated module", _entry("Lean.Meta.unificationHintExtension",
                                                  GATED_MODULE)),
    ("one equation lemma made by two proof modules",
     _twice("paperMean.eq_1", ("theorem", DEPENDENCY_PROOF), ("theorem", PROOF_MODULE))),
]  # fmt: skip


@pytest.mark.parametrize("record", [c[1] for c in ALLOWED], ids=[c[0] for c in ALLOWED])
def test_harmless_additions_pass(record):
    assert _judged(record) == set()


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        ("not json", "not JSON"),
        ("[1, 2]", "not a JSON object"),
        (json.dumps({**passing_record(), "verdict": "verified"}), "malformed at verdict"),
        (json.dumps({k: v for k, v in passing_record().items() if k != "replay"}),
         "malformed at replay"),
        (json.dumps(passing_record(schema="paperlint.checker/2")), "malformed at schema"),
        (json.dumps(_with("candidate.type_equal", "yes")), "malformed at candidate.type_equal"),
        (json.dumps(_with("entries.0.count", 0)), "malformed at entries.0.count"),
        (json.dumps(_with("reference.kind", "lemma")), "malformed at reference.kind"),
    ],
)  # fmt: skip
def test_a_malformed_record_is_refused_with_where(raw, why):
    parsed, message = parse_record(raw)
    assert parsed is None and why in message, message


def test_reference_mode_needs_no_candidate_and_judges_gated_material():
    record = passing_record(mode="reference", candidate_module=None, candidate=None, axioms=None)
    asked = {"mode": "reference", "candidate_module": None}
    assert _judged(record, **asked) == set()
    bad = {**record, "entries": [{"module": GATED_MODULE, "extension": "Lean.externAttr",
                                  "count": 1}]}  # fmt: skip
    assert ("implementation-attribute", f"{GATED_MODULE}:Lean.externAttr") in _judged(bad, **asked)

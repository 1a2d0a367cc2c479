"""Records and layouts for the trusted-checker tests: results built directly, no engine run."""

from __future__ import annotations

from collections.abc import Sequence

from paperlint.engine.steps.base import evolve
from paperlint.records.outputs import DraftOutput, FidelityFields
from paperlint.records.results import ResultRecord, Verdict
from paperlint.records.work import Obligation
from tests.workstate import evolved

FIDELITY = FidelityFields(
    object_class="x", quantifier_order="x", parameter_domains="x", codomain="x",
    hypotheses="x", conclusion="x",
)  # fmt: skip


def result(
    rid: str,
    lean_name: str,
    statement: str,
    *,
    kind: str = "lemma",
    definitions: Sequence[str] = (),
    proofs: Sequence[str] = (),
    verified: bool = False,
) -> ResultRecord:
    """A gated result; `proofs` are its accepted proofs (the last one proves the statement)."""
    draft = DraftOutput(
        lean_name=lean_name, statement=statement, definitions=list(definitions), fidelity=FIDELITY
    )
    obligations = [
        Obligation(id="main" if i == len(proofs) - 1 else f"s{i + 1}", skeleton=statement,
                   status="proved", proof=p)
        for i, p in enumerate(proofs)
    ]  # fmt: skip
    verdict = Verdict.VERIFIED_UNCONDITIONAL if verified else None
    record = ResultRecord(id=rid, number=None, kind=kind, verdict=verdict)
    work = evolved(record.work, draft=draft, fingerprint="sha256:gated", obligations=obligations)
    return evolve(record, work=work)


REFERENCE_MODULE = "PaperlintCheck.Reference.r_lem_b_00000000"
PROOF_MODULE = "PaperlintCheck.Proof.r_lem_b_00000000"
GATED_MODULE = "PaperlintCheck.Gated.r_lem_b_00000000"
LE_TYPE = "forall (a : Real), @LE.le.{0} Real Real.instLE (paperMean a a) a"


def passing_record(**changes: object) -> dict[str, object]:
    """A checker record (as the program writes it) that supports a verdict; `changes` replace
    top-level fields."""
    statement = {
        "name": "lem_b", "kind": "theorem", "levels": [], "type": LE_TYPE,
        "type_hash": "1234567890123456789",
    }  # fmt: skip
    record: dict[str, object] = {
        "schema": "paperlint.checker/1",
        "lean": "4.35.0",
        "mode": "compare",
        "target": "lem_b",
        "reference_module": REFERENCE_MODULE,
        "candidate_module": PROOF_MODULE,
        "reference": {
            **statement,
            "hypotheses": [{"name": "a", "type": "Real", "binder": "default"}],
            "constants": [
                {"name": "Real", "module": "Mathlib.Data.Real.Basic"},
                {"name": "LE.le", "module": "Init.Prelude"},
                {"name": "paperMean", "module": GATED_MODULE},
            ],
            "imports": ["Mathlib", GATED_MODULE],
        },
        "candidate": {**statement, "module": PROOF_MODULE, "type_equal": True},
        "auxiliaries": [],
        "axioms": ["propext", "Classical.choice", "Quot.sound"],
        "unknown": [],
        "replay": {"ok": True, "error": None, "constants": 3},
        "added": [
            {
                "name": "paperMean",
                "module": GATED_MODULE,
                "kind": "def",
                "unsafe": False,
                "partial": False,
            },
            {
                "name": "lem_b",
                "module": PROOF_MODULE,
                "kind": "theorem",
                "unsafe": False,
                "partial": False,
            },
            {
                "name": "lem_b._proof_1",
                "module": PROOF_MODULE,
                "kind": "theorem",
                "unsafe": False,
                "partial": False,
            },
        ],  # fmt: skip
        "entries": [
            {"module": PROOF_MODULE, "extension": "Lean.declRangeExt", "count": 2},
        ],
        "error": None,
    }
    record.update(changes)
    return record


def request(**changes: object):
    from paperlint.lean.modules import CheckerRequest

    fields: dict[str, object] = {
        "mode": "compare", "target": "lem_b", "reference_module": REFERENCE_MODULE,
        "candidate_module": PROOF_MODULE, "approved": ("twice",),
    }  # fmt: skip
    fields.update(changes)
    return CheckerRequest(**fields)  # type: ignore[arg-type]

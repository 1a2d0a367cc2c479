"""The module layout: reference modules from gated material only, proof modules importing
their dependencies' proof modules, every text composed from the records."""

from __future__ import annotations

import pytest

from paperlint.lean.modules import (
    GATED,
    PROOF,
    REFERENCE,
    ident,
    module_name,
    module_text,
    split_header,
)
from paperlint.records.modules import check_job
from tests.checker.support import result

HEADER = "import Mathlib\nset_option maxHeartbeats 400000\nopen Real"
PLANTED = "instance (priority := 10000) bad : LE ℝ := ⟨fun _ _ => True⟩"


def _records():
    base = result(
        "def:mean", "paperMean", "noncomputable def paperMean (a b : ℝ) : ℝ := (a + b) / 2",
        kind="definition",
    )  # fmt: skip
    a = result(
        "lem:a", "lem_a", "theorem lem_a : (1 : ℝ) ≤ 2 := by\n  sorry",
        proofs=[f"{PLANTED}\n\ntheorem lem_a : (1 : ℝ) ≤ 2 := by norm_num"], verified=True,
    )  # fmt: skip
    b = result(
        "lem:b", "lem_b", "theorem lem_b (a : ℝ) : paperMean a a ≤ a := by\n  sorry",
        definitions=["def twice (x : ℝ) : ℝ := 2 * x"],
        proofs=["theorem lem_b (a : ℝ) : paperMean a a ≤ a := by trivial"],
    )  # fmt: skip
    records = {r.id: r for r in (base, a, b)}
    deps = {"def:mean": [], "lem:a": ["def:mean"], "lem:b": ["def:mean", "lem:a"]}
    return records, deps


def test_the_reference_holds_gated_material_only():
    records, deps = _records()
    job = check_job(HEADER, records, deps, "lem:b", mode="compare")
    assert job is not None
    reference = job.module(module_name(REFERENCE, "lem:b"))
    assert reference is not None
    assert "sorry" in reference.text and "trivial" not in reference.text
    assert PLANTED not in reference.text and PROOF not in reference.text
    assert reference.text.splitlines()[:3] == [
        "import Mathlib",
        f"import {module_name(GATED, 'def:mean')}",
        f"import {module_name(GATED, 'lem:b')}",
    ]
    assert not reference.untrusted


def test_the_proof_module_imports_the_dependencies_proof_modules():
    records, deps = _records()
    job = check_job(HEADER, records, deps, "lem:b", mode="compare")
    assert job is not None
    proof = job.module(module_name(PROOF, "lem:b"))
    dep_proof = job.module(module_name(PROOF, "lem:a"))
    assert proof is not None and dep_proof is not None and proof.untrusted
    assert f"import {dep_proof.name}" in proof.text
    assert PLANTED in dep_proof.text  # the planted instance lives only in lem:a's proof module
    names = [m.name for m in job.modules]
    # trusted modules are built (and the reference locked) before any untrusted one
    first_untrusted = min(i for i, m in enumerate(job.modules) if m.untrusted)
    assert all(not m.untrusted for m in job.modules[:first_untrusted])
    assert names[-1] == proof.name
    assert job.request.candidate_module == proof.name
    assert job.request.approved == ("twice",)


def test_reference_mode_builds_no_proof_module():
    records, deps = _records()
    job = check_job(HEADER, records, deps, "lem:b", mode="reference")
    assert job is not None
    assert not any(m.untrusted for m in job.modules)
    assert job.request.candidate_module is None


def test_a_definition_has_no_reference_and_an_empty_gated_module_is_not_built():
    records, deps = _records()
    assert check_job(HEADER, records, deps, "def:mean", mode="reference") is None
    job = check_job(HEADER, records, deps, "lem:b", mode="reference")
    assert job is not None
    assert module_name(GATED, "lem:a") not in [m.name for m in job.modules]


def test_the_key_changes_with_any_module_text():
    records, deps = _records()
    first = check_job(HEADER, records, deps, "lem:b", mode="compare")
    records["lem:a"] = result(
        "lem:a", "lem_a", "theorem lem_a : (1 : ℝ) ≤ 2 := by\n  sorry",
        proofs=["theorem lem_a : (1 : ℝ) ≤ 2 := by norm_num"], verified=True,
    )  # fmt: skip
    second = check_job(HEADER, records, deps, "lem:b", mode="compare")
    assert first is not None and second is not None
    assert first.key() != second.key()
    reference = module_name(REFERENCE, "lem:b")
    assert first.module(reference) == second.module(reference)  # the lock did not move


@pytest.mark.parametrize(
    ("rid", "expected"),
    [("lem:mean-max", "r_lem_mean_max_"), ("thm@1a2b", "r_thm_1a2b_"), ("::", "r_result_")],
)
def test_module_idents_are_lean_identifiers(rid, expected):
    name = ident(rid)
    assert name.startswith(expected) and name.replace("_", "").isalnum()
    assert ident(rid) != ident(rid + "x")


def test_header_split_keeps_imports_first():
    assert split_header("prelude\nimport A\nset_option x 1") == (
        ["prelude", "import A"],
        ["set_option x 1"],
    )
    text = module_text("prelude", ["PaperlintCheck.Gated.r_x"], ["theorem t : T := T.intro"])
    assert text == "prelude\nimport PaperlintCheck.Gated.r_x\n\ntheorem t : T := T.intro\n"


# Two labels an author can pick whose idents collide (found by trying separators: 32 bits).
TWINS = ("lem~~:-a", "lem-#&!=a")


def _twin_records():
    x, y = (
        result(rid, f"lem_{i}", f"theorem lem_{i} : (1 : ℝ) ≤ 2 := by\n  sorry",
               definitions=[f"def mu : ℝ := {i}"],
               proofs=[f"theorem lem_{i} : (1 : ℝ) ≤ 2 := by norm_num"], verified=True)
        for i, rid in enumerate(TWINS)
    )  # fmt: skip
    z = result("lem:z", "lem_z", "theorem lem_z : mu ≤ 1 := by\n  sorry",
               proofs=["theorem lem_z : mu ≤ 1 := by norm_num [mu]"])  # fmt: skip
    deps = {TWINS[0]: [], TWINS[1]: [], "lem:z": list(TWINS)}
    return {r.id: r for r in (x, y, z)}, deps


@pytest.mark.parametrize("mode", ["reference", "compare"])
def test_a_layout_whose_module_names_collide_is_not_composed(mode):
    """Both twins' gated modules are `Gated.r_lem_a_de3d39cf`: built together, the second's
    source overwrites the first's, and `lem_z`'s `mu` would be the second twin's although the
    records give both (Lean refuses the two `mu` when the names differ)."""
    assert ident(TWINS[0]) == ident(TWINS[1])
    records, deps = _twin_records()
    assert check_job(HEADER, records, deps, "lem:z", mode=mode) is None
    assert check_job(HEADER, records, deps, TWINS[0], mode=mode) is not None  # alone, fine

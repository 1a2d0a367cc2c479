"""The trusted check's compile half, with a real Lean 4.35.0 (`prelude` modules only).

The layout paperlint composes (gated, reference and proof modules importing each other) is
built by the real `lean -o`, each compile confined to writing its own output. A proof module
of an earlier result plants an instance; the same statement text then elaborates, in the later
proof module, to a different type than in the reference module — the difference the checker's
`Expr.equal` refuses. The checker half runs as small labelled stand-in programs (no checker
can be compiled here: it imports `Lean`); see tests/checker/test_trusted_edge.py.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from paperlint.engine.steps.base import evolve
from paperlint.lean.modules import (
    COUNTEREXAMPLE,
    DISCHARGE,
    GATED,
    PROOF,
    RECONNECT,
    REFERENCE,
    REFUTATION,
    CheckerRequest,
    CheckJob,
    LeanModule,
    module_name,
    module_text,
)
from paperlint.lean.sandbox import sandbox_status
from paperlint.lean.trusted import REUSED, Limits, OleanCache, Tools, compile_module, run_job
from paperlint.lean.verifier import Outcome
from paperlint.records.modules import check_job, discharge_job, refutation_job
from paperlint.records.slots import obligations_of
from tests.checker.support import result
from tests.workstate import evolved

SHIM = [
    "unsafe axiom lcErased : Type",
    "unsafe axiom lcProof {α : Prop} : α",
    "unsafe axiom lcAny : Type",
    "unsafe axiom lcUnreachable {α : Sort u} : α",
    "axiom placeholder {α : Sort u} : α",  # stands for `sorry`, which needs Init
    "inductive T : Prop | intro",
    "inductive F : Prop",
    "class Rel (α : Type) : Type where\n  rel : α → α → Prop",
    "inductive N : Type | z | s (n : N)",
    "inductive False : Prop",
    "def Not (a : Prop) : Prop := a → False",  # `¬` is notation of Lean's library
]
BASE = "instance instRelN : Rel N := ⟨fun _ _ => F⟩"
PLANTED = "instance (priority := 10000) instBad : Rel N := ⟨fun _ _ => T⟩"
B_STATEMENT = "theorem lem_b : Rel.rel N.z N.z := placeholder"
B_PROOF = "theorem lem_b : Rel.rel N.z N.z := T.intro"


def _records(planted: bool = True):
    base = result("def:base", "instRelN", BASE, kind="definition", definitions=SHIM)
    a_proofs = [*([PLANTED] if planted else []), "theorem lem_a : T := T.intro"]
    a = result("lem:a", "lem_a", "theorem lem_a : T := placeholder",
               proofs=["\n\n".join(a_proofs)], verified=True)  # fmt: skip
    b = result("lem:b", "lem_b", B_STATEMENT, proofs=[B_PROOF])
    deps = {"def:base": [], "lem:a": ["def:base"], "lem:b": ["def:base", "lem:a"]}
    return {r.id: r for r in (base, a, b)}, deps


def _tools(lean: Path, cwd: Path, checker: tuple[str, ...] | None = None) -> Tools:
    return Tools(lean=(str(lean),), checker=checker, cwd=cwd, readonly=(lean.parent.parent,))


def _build_all(lean: Path, tmp: Path, planted: bool = True, job: CheckJob | None = None):
    if job is None:
        records, deps = _records(planted)
        job = check_job("prelude", records, deps, "lem:b", mode="compare")
    assert job is not None
    src, build = tmp / "src", tmp / "build"
    for module in job.modules:
        (src / module.path).parent.mkdir(parents=True, exist_ok=True)
        # A composed reference's `sorry` body needs Lean's library: the stand-in axiom proves
        # the same statement (the type, which is all a reference holds, is untouched).
        text = module.text.replace(":= sorry", ":= placeholder")
        (src / module.path).write_text(text, encoding="utf-8")
    build.mkdir()
    limits = Limits(timeout_s=120)
    runs = [
        compile_module(m, _tools(lean, tmp), limits, src, build, tmp / f"out-{i}")
        for i, m in enumerate(job.modules)
    ]
    return job, runs, build


def _elaborated(lean: Path, tmp: Path, build: Path, module: str, name: str = "lem_b") -> str:
    """`#check @name` with every implicit argument shown, in a file importing `module`."""
    probe = tmp / f"probe_{module.replace('.', '_')}.lean"
    probe.write_text(
        f"prelude\nimport {module}\nset_option pp.explicit true in\n#check @{name}\n",
        encoding="utf-8",
    )
    done = subprocess.run([str(lean), str(probe)], capture_output=True, text=True, timeout=120,
                          cwd=tmp, env={"LEAN_PATH": str(build)}, check=False)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.strip()


def test_the_layout_builds_and_the_planted_instance_changes_the_elaborated_type(
    lean_oracle: Path, tmp_path: Path
) -> None:
    job, runs, build = _build_all(lean_oracle, tmp_path)
    assert [r.exit_code for r in runs] == [0] * len(runs), [r.output for r in runs]
    assert all((build / m.path.replace(".lean", ".olean")).is_file() for m in job.modules)
    reference = _elaborated(lean_oracle, tmp_path, build, module_name(REFERENCE, "lem:b"))
    candidate = _elaborated(lean_oracle, tmp_path, build, module_name(PROOF, "lem:b"))
    assert reference == "lem_b : @Rel.rel N instRelN N.z N.z"
    assert candidate == "lem_b : @Rel.rel N instBad N.z N.z"


def test_without_the_planted_instance_the_false_statement_does_not_compile(
    lean_oracle: Path, tmp_path: Path
) -> None:
    job, runs, _ = _build_all(lean_oracle, tmp_path, planted=False)
    assert runs[-1].module == module_name(PROOF, "lem:b")
    assert runs[-1].exit_code == 1 and "type mismatch" in runs[-1].output.lower()
    assert all(r.exit_code == 0 for r in runs[:-1])


def test_a_compile_past_its_time_limit_is_a_timeout(lean_oracle: Path, tmp_path: Path) -> None:
    records, deps = _records()
    job = check_job("prelude", records, deps, "lem:b", mode="compare")
    assert job is not None
    run = run_job(job, _tools(lean_oracle, tmp_path), Limits(timeout_s=0.001), tmp_path / "s")
    assert run.outcome is Outcome.TIMEOUT and run.compile[-1].timed_out


def test_a_failing_proof_module_rejects_before_the_checker_runs(
    lean_oracle: Path, tmp_path: Path
) -> None:
    records, deps = _records(planted=False)
    job = check_job("prelude", records, deps, "lem:b", mode="compare")
    assert job is not None
    marker = tmp_path / "checker-ran"
    checker = ("/bin/sh", "-c", f"touch {marker}", "sh")
    run = run_job(job, _tools(lean_oracle, tmp_path, checker), Limits(120), tmp_path / "s")
    assert run.outcome is Outcome.REJECTED
    assert run.hint and "the untrusted module" in run.hint and "does not compile" in run.hint
    assert not marker.exists()


@pytest.mark.skipif(not sandbox_status().active, reason="bubblewrap cannot confine here")
def test_a_confined_compile_writes_only_its_own_output(lean_oracle: Path, tmp_path: Path) -> None:
    """Asked to write its .olean anywhere but its own output folder, Lean cannot."""
    from paperlint.lean.trusted import _confined_run

    src = tmp_path / "src"
    src.mkdir()
    (src / "M.lean").write_text("prelude\ninductive T : Prop | intro\n", encoding="utf-8")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    tools = _tools(lean_oracle, tmp_path)
    limits = Limits(timeout_s=120, sandbox="required")
    command = [
        str(lean_oracle),
        "-R",
        str(src),
        "-o",
        str(outside / "M.olean"),
        str(src / "M.lean"),
    ]
    blocked = _confined_run(command, tools, limits, readonly=[src, outside],
                            writable=tmp_path / "out", env={})  # fmt: skip
    assert blocked.exit_code != 0 and not (outside / "M.olean").exists()
    allowed = [*command[:4], str(tmp_path / "out" / "M.olean"), command[-1]]
    done = _confined_run(allowed, tools, limits, readonly=[src], writable=tmp_path / "out", env={})
    assert done.exit_code == 0, done.output
    assert (tmp_path / "out" / "M.olean").is_file()


# --- the other jobs: an ERROR's counterexample, a reconnection's discharge (issue #25) --------

REFUTING = "theorem lem_b_counterexample : Not (Rel.rel N.z N.z) := placeholder"


@pytest.mark.parametrize("planted", [True, False], ids=["poisoned context", "clean context"])
def test_the_refutation_reference_negates_exactly_the_locked_type(
    lean_oracle: Path, tmp_path: Path, planted: bool
) -> None:
    """`Not (type_of% @lem_b)` in the refutation reference is the negation of the type the
    reference module locked, whatever the counterexample's context holds; the candidate's text
    `Not (Rel.rel N.z N.z)`, where an earlier proof planted an instance, elaborates to the
    negation of another statement — the difference the checker's `Expr.equal` refuses."""
    records, deps = _records(planted)
    job = refutation_job("prelude", records, deps, "lem:b", REFUTING)
    assert job is not None
    _, runs, build = _build_all(lean_oracle, tmp_path, job=job)
    assert [r.exit_code for r in runs] == [0] * len(runs), [r.output for r in runs]
    name = "lem_b_counterexample"
    reference = _elaborated(lean_oracle, tmp_path, build, module_name(REFUTATION, "lem:b"), name)
    candidate = _elaborated(
        lean_oracle, tmp_path, build, module_name(COUNTEREXAMPLE, "lem:b"), name
    )
    locked = _elaborated(lean_oracle, tmp_path, build, module_name(REFERENCE, "lem:b"))
    assert locked == "lem_b : @Rel.rel N instRelN N.z N.z"
    assert reference == f"{name} : Not (@Rel.rel N instRelN N.z N.z)"
    instance = "instBad" if planted else "instRelN"
    assert candidate == f"{name} : Not (@Rel.rel N {instance} N.z N.z)"
    assert job.request.reference_module == module_name(REFUTATION, "lem:b")
    assert not job.module(module_name(REFUTATION, "lem:b")).untrusted  # type: ignore[union-attr]
    assert job.module(module_name(COUNTEREXAMPLE, "lem:b")).untrusted  # type: ignore[union-attr]


def _clause_records():
    base = result("def:base", "instRelN", BASE, kind="definition", definitions=SHIM)
    a = result("lem:a", "lem_a", "theorem lem_a : T := placeholder",
               proofs=["theorem lem_a : T := T.intro"], verified=True)  # fmt: skip
    gated = "theorem lem_b (n : N) (h_clause_lem_a : T) : T := placeholder"
    proof = "theorem lem_b (n : N) (h_clause_lem_a : T) : T := h_clause_lem_a"
    b = result("lem:b", "lem_b", gated, verified=True, proofs=[proof])
    deps = {"def:base": [], "lem:a": ["def:base"], "lem:b": ["def:base", "lem:a"]}
    return {r.id: r for r in (base, a, b)}, deps, gated


def test_a_discharge_builds_and_its_reference_drops_only_the_clause(
    lean_oracle: Path, tmp_path: Path
) -> None:
    """The engine's composed discharge, its reference (the gated statement without the clause,
    from gated modules only) and the proof modules it applies all compile with the real Lean,
    and the discharge has exactly the reference's type."""
    from paperlint.lean.compose import discharge_declaration

    records, deps, gated = _clause_records()
    composed = discharge_declaration(
        gated, name="lem_b", new_name="lem_b_reconnected", by={"h_clause_lem_a": "lem_a"}
    )
    assert composed.text is not None
    job = discharge_job("prelude", records, deps, "lem:b", composed.text, ["lem:a"])
    assert job is not None
    _, runs, build = _build_all(lean_oracle, tmp_path, job=job)
    assert [r.exit_code for r in runs] == [0] * len(runs), [r.output for r in runs]
    name = "lem_b_reconnected"
    reference = _elaborated(lean_oracle, tmp_path, build, module_name(DISCHARGE, "lem:b"), name)
    candidate = _elaborated(lean_oracle, tmp_path, build, module_name(RECONNECT, "lem:b"), name)
    assert reference == candidate == f"{name} : ∀ (n : N), T"
    discharge = job.module(module_name(DISCHARGE, "lem:b"))
    assert discharge is not None and PROOF not in discharge.text  # gated material only
    assert discharge_job("prelude", records, deps, "lem:b", composed.text, ["def:base"]) is None


def test_a_module_compiled_for_one_job_is_reused_by_the_next_and_only_then(
    lean_oracle: Path, tmp_path: Path
) -> None:
    """The gate's reference job, then the audit's job: the second compiles only its proof
    modules, and what it reuses is what Lean builds on (the later modules compile against the
    reused `.olean` files). A dependency whose text changed is compiled again, and so is every
    module importing it, although their own text is the same."""
    records, deps = _records()
    cache = OleanCache()
    tools = _tools(lean_oracle, tmp_path)
    reference = check_job("prelude", records, deps, "lem:b", mode="reference")
    compare = check_job("prelude", records, deps, "lem:b", mode="compare")
    assert reference is not None and compare is not None
    first = run_job(reference, tools, Limits(120), tmp_path / "s1", cache)
    assert all(c.exit_code == 0 and c.output != REUSED for c in first.compile)
    second = run_job(compare, tools, Limits(120), tmp_path / "s2", cache)
    reused = [c.module for c in second.compile if c.output == REUSED]
    assert reused == [m.name for m in reference.modules]
    assert all(c.exit_code == 0 for c in second.compile), [c.output for c in second.compile]
    assert cache.reused == len(reference.modules)
    # lem:a's proof changes: its module and lem:b's (which imports it) are compiled again
    a = records["lem:a"]
    changed = evolve(obligations_of(a.work)[0], proof="theorem lem_a : T := T.intro")
    records["lem:a"] = a.with_work(evolved(a.work, obligations=[changed]))
    again = check_job("prelude", records, deps, "lem:b", mode="compare")
    assert again is not None and again.module(module_name(PROOF, "lem:b")) == compare.module(
        module_name(PROOF, "lem:b")
    )
    third = run_job(again, tools, Limits(120), tmp_path / "s3", cache)
    built = [c.module for c in third.compile if c.output != REUSED]
    assert built == [module_name(PROOF, "lem:a"), module_name(PROOF, "lem:b")]
    folder = cache.folder
    cache.close()
    assert not folder.exists()


def _shadow_records(kind: str):
    """`lem:b`'s gated module declares `helper`; its dependency `lem:a`, which never imports
    that module, declares `helper` too in its proof module (a `def`, or a theorem of the same
    type)."""
    same = {
        "def": ("def helper : N := N.z", "def helper : N := N.s N.z"),
        "theorem": ("theorem helper : T := T.intro", "theorem helper : T := T.intro"),
    }
    gated, planted = same[kind]  # fmt: skip
    base = result("def:base", "instRelN", BASE, kind="definition", definitions=SHIM)
    a = result("lem:a", "lem_a", "theorem lem_a : T := placeholder",
               proofs=[f"{planted}\n\ntheorem lem_a : T := T.intro"], verified=True)  # fmt: skip
    b = result("lem:b", "lem_b", "theorem lem_b : T := placeholder", definitions=[gated],
               proofs=["theorem lem_b : T := T.intro"])  # fmt: skip
    deps = {"def:base": [], "lem:a": ["def:base"], "lem:b": ["def:base", "lem:a"]}
    return {r.id: r for r in (base, a, b)}, deps


@pytest.mark.parametrize(("kind", "compiles"), [("def", False), ("theorem", True)])
def test_lean_imports_one_name_twice_only_for_theorems(
    lean_oracle: Path, tmp_path: Path, kind: str, compiles: bool
) -> None:
    """The fact the checker's `duplicate-constant` rule rests on (docs/checker.md, "Duplicate
    names"): the candidate, importing a gated module and a dependency's proof module that both
    declare `helper`, compiles only when both are theorems of one type. So two copies of a
    definition in the checker's record never come from an honest compile."""
    records, deps = _shadow_records(kind)
    job = check_job("prelude", records, deps, "lem:b", mode="compare")
    assert job is not None
    _, runs, _ = _build_all(lean_oracle, tmp_path, job=job)
    assert [r.module for r in runs][-2:] == [
        module_name(PROOF, "lem:a"),
        module_name(PROOF, "lem:b"),
    ]
    assert all(r.exit_code == 0 for r in runs[:-1]), [r.output for r in runs]
    assert (runs[-1].exit_code == 0) is compiles, runs[-1].output
    if not compiles:
        assert "environment already contains 'helper'" in runs[-1].output


def _twins_job(first: str, second: str) -> CheckJob:
    """A reference for `lem_z` over two gated modules that each define `mu`, named `first`
    and `second` (composed by hand: `modules._job` no longer composes colliding names)."""
    base = LeanModule(f"{GATED}.r_base", module_text("prelude", [], [*SHIM, BASE]))
    x = LeanModule(first, module_text("prelude", [base.name], ["def mu : N := N.z"]))
    y = LeanModule(second, module_text("prelude", [base.name], ["def mu : N := N.s N.z"]))
    statement = "theorem lem_z : Rel.rel mu mu := placeholder"
    z = LeanModule(f"{REFERENCE}.r_z", module_text("prelude", [base.name, x.name, y.name],
                                                   [statement]))  # fmt: skip
    request = CheckerRequest(mode="reference", target="lem_z", reference_module=z.name,
                             candidate_module=None)  # fmt: skip
    return CheckJob(request=request, modules=(base, x, y, z))


def test_colliding_module_names_would_build_a_layout_the_records_do_not_describe(
    lean_oracle: Path, tmp_path: Path
) -> None:
    """Why a layout whose module names collide is not composed (tests/checker/test_modules.py):
    the two gated modules' sources share one path, so both builds compile the second's text,
    and a statement over the two `mu` compiles against the second alone, where the layout the
    records describe does not compile at all."""
    apart = _twins_job(f"{GATED}.r_x", f"{GATED}.r_y")
    _, runs, _ = _build_all(lean_oracle, tmp_path / "apart", job=apart)
    assert [r.exit_code for r in runs][:3] == [0, 0, 0]
    assert runs[3].exit_code != 0 and "environment already contains 'mu'" in runs[3].output
    twins = _twins_job(f"{GATED}.r_twin", f"{GATED}.r_twin")
    _, runs, _ = _build_all(lean_oracle, tmp_path / "twins", job=twins)
    assert [r.exit_code for r in runs] == [0, 0, 0, 0], [r.output for r in runs]

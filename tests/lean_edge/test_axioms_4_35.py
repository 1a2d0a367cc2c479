"""The axiom classifier against answers shaped like Lean 4.35's (fixtures/lean/axioms_4_35).

Case table: fixture -> queried names -> (outcome, axioms per name, class per axiom). The
fixtures are hand-written from Lean's `Print.lean` and `Meta/Native.lean` (see their README);
the parse and the classification below are the code a live run uses.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from paperlint.lean.lexer import ident_parts
from paperlint.lean.messages import (
    AxiomClass,
    classify_axiom,
    disallowed_axioms,
    never_allowed,
    parse_marked_axioms,
)
from paperlint.lean.responses import axioms_from_response
from paperlint.lean.verifier import (
    STANDARD_AXIOMS,
    AxiomReport,
    FailureCode,
    LeanCheck,
    LeanContext,
    Outcome,
    accept,
)

FOLDER = Path(__file__).resolve().parents[2] / "fixtures" / "lean" / "axioms_4_35"
S, N, Y, C = AxiomClass.STANDARD, AxiomClass.NATIVE, AxiomClass.SORRY, AxiomClass.CUSTOM
NATIVE_AX = "Paper.big_check._native.native_decide.ax_1_1"

# fixture, queried name, parse outcome, {axiom: class} (None: no single answer), verified?
CASES = [
    ("standard", "_root_.Paper.sq_add_one_pos", Outcome.ACCEPTED,
     {"propext": S, "Classical.choice": S, "Quot.sound": S}, True),
    ("no_axioms", "Paper.two_le_three", Outcome.ACCEPTED, {}, True),
    ("native_decide_wrapped", "Paper.big_check", Outcome.ACCEPTED,
     {"propext": S, "Classical.choice": S, "Quot.sound": S, NATIVE_AX: N}, False),
    ("native_only", "Paper.tiny", Outcome.ACCEPTED,
     {"Paper.tiny._native.native_decide.ax_1_1": N}, False),
    ("native_two_uses", "Paper.two_checks", Outcome.ACCEPTED,
     {"propext": S, "Classical.choice": S, "Quot.sound": S,
      "Paper.count_a._native.native_decide.ax_1_1": N,
      "Paper.count_b._native.native_decide.ax_1_1": N}, False),
    ("bv_decide", "Paper.bits", Outcome.ACCEPTED,
     {"Paper.bits._native.bv_decide.ax_1_1": N}, False),
    ("native_private", "Paper.uses_private", Outcome.ACCEPTED,
     {"propext": S, "_private.Paper.Basic.0.Paper.helper._native.native_decide.ax_1_1": N}, False),
    ("legacy_reduce_bool", "Paper.old_check", Outcome.ACCEPTED,
     {"Lean.ofReduceBool": N, "Lean.trustCompiler": N}, False),
    ("sorry", "step_two", Outcome.ACCEPTED,
     {"propext": S, "sorryAx": Y, "Classical.choice": S, "Quot.sound": S}, False),
    ("custom", "Paper.uses_helper", Outcome.ACCEPTED,
     {"propext": S, "Paper.helper_ax": C, "Classical.choice": S, "Quot.sound": S}, False),
    # Names that merely look native are custom: refused all the same, never standard.
    ("native_lookalike", "Paper.sneaky", Outcome.ACCEPTED,
     {"Paper._native.helper": C, "Paper.ax_1_1": C, "propext'": C}, False),
    ("ambiguous_open", "sq_pos", Outcome.REJECTED, None, False),
    ("escaped_name", "Paper.«lemma 2.1»", Outcome.ACCEPTED,
     {"propext": S, "Classical.choice": S, "Quot.sound": S}, True),
    ("unknown_constant", "Paper.missing", Outcome.REJECTED, None, False),
]  # fmt: skip


def _response(case: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((FOLDER / "repl" / f"{case}.json").read_text("utf-8"))
    return data


@pytest.mark.parametrize(("case", "name", "outcome", "classes", "verified"), CASES)
def test_case_table(case, name, outcome, classes, verified) -> None:
    report = axioms_from_response(_response(case), [name])
    assert report.outcome is outcome
    axioms = report.axioms[name]
    if classes is None:
        assert axioms is None and report.code is FailureCode.AXIOMS_UNPARSED
        return
    assert axioms is not None and set(axioms) == set(classes)
    assert {a: classify_axiom(a) for a in axioms} == classes
    assert (disallowed_axioms(axioms) == ()) is verified


def test_every_fixture_is_in_the_table() -> None:
    assert {p.stem for p in (FOLDER / "repl").glob("*.json")} == {c[0] for c in CASES}


@pytest.mark.parametrize(
    ("name", "cls"),
    [
        ("propext", S),
        ("Classical.choice", S),
        ("Quot.sound", S),
        ("sorryAx", Y),
        ("Lean.ofReduceBool", N),
        ("Lean.trustCompiler", N),
        ("Foo.bar._native.native_decide.ax_1", N),
        ("Foo.bar._native.native_decide.ax_1_1", N),
        ("Foo.bar._native.native_decide.ax_12_34", N),
        ("Foo.«weird.name»._native.native_decide.ax_2_1", N),
        ("_private.Foo.0.baz._native.bv_decide.ax_2", N),
        ("Foo._native.Smt.polynorm.ax_1_1", N),
        # lookalikes: custom, i.e. refused too, but not mistaken for a known class
        ("Foo._native.native_decide.ax_1.extra", C),
        ("Foo._native.native_decide.ax_x_1", C),
        ("Foo._native.native_decide.decl_1", C),
        ("_native", C),
        ("Foo.native_decide.ax_1", C),
        ("Classical.choice'", C),
        ("Lean.ofReduceBool'", C),
        ("propext.foo", C),
        ("", C),
    ],
)
def test_classifier(name: str, cls: AxiomClass) -> None:
    assert classify_axiom(name) is cls


def test_components_respect_guillemets() -> None:
    assert ident_parts("Foo.«a.b».c") == ["Foo", "«a.b»", "c"]
    assert ident_parts("x") == ["x"]


def test_no_allowlist_admits_sorry_or_native() -> None:
    widened = STANDARD_AXIOMS | {"Lean.ofReduceBool", "sorryAx", NATIVE_AX, "Paper.cited_ax"}
    assert disallowed_axioms([NATIVE_AX, "Lean.ofReduceBool", "sorryAx"], widened) == tuple(
        sorted([NATIVE_AX, "Lean.ofReduceBool", "sorryAx"])
    )
    assert never_allowed(NATIVE_AX) and not never_allowed("Paper.cited_ax")
    # a named custom axiom is the only thing a configured allowlist can add
    assert disallowed_axioms(["Paper.cited_ax", "propext"], widened) == ()


@pytest.mark.parametrize("file", ["marked_bare.txt", "marked_prefixed.txt"])
def test_lake_output_both_info_forms(file: str) -> None:
    output = (FOLDER / "lake" / file).read_text("utf-8")
    names = ["Paper.sq_add_one_pos", "Paper.big_check"]
    found, problems = parse_marked_axioms(output, names, "fixture-4.35")
    assert problems == []
    assert disallowed_axioms(found["Paper.sq_add_one_pos"] or ["?"]) == ()
    assert disallowed_axioms(found["Paper.big_check"] or ()) == (NATIVE_AX,)


class _Answers:
    """A verifier that answers the check cleanly and the axiom query from one fixture."""

    is_replay = True

    def __init__(self, case: str) -> None:
        self.case = case

    def check(self, context: LeanContext, candidate: str, *, timeout_s: float) -> LeanCheck:
        return LeanCheck(outcome=Outcome.ACCEPTED, replay=True)

    def print_axioms(
        self, context: LeanContext, names: Sequence[str], *, timeout_s: float
    ) -> AxiomReport:
        return axioms_from_response(_response(self.case), names, replay=True)

    def final_check(self, file, names, *, timeout_s):  # pragma: no cover - not used here
        raise NotImplementedError

    def close(self) -> None:
        return None


@pytest.mark.parametrize(
    "case", ["native_decide_wrapped", "legacy_reduce_bool", "sorry", "native_private"]
)
def test_accept_never_passes_native_or_sorry_even_when_allow_listed(case: str) -> None:
    name = next(c[1] for c in CASES if c[0] == case)
    widened = STANDARD_AXIOMS | {"Lean.ofReduceBool", "Lean.trustCompiler", "sorryAx", NATIVE_AX}
    context = LeanContext(header="import Mathlib")
    result = accept(_Answers(case), context, "theorem x : True := trivial", name,
                    timeout_s=60, allowlist=widened)  # fmt: skip
    assert result.outcome is Outcome.REJECTED and result.code is FailureCode.DISALLOWED_AXIOMS


def test_accept_passes_standard() -> None:
    context = LeanContext(header="import Mathlib")
    result = accept(_Answers("standard"), context, "theorem x : True := trivial",
                    "Paper.sq_add_one_pos", timeout_s=60)  # fmt: skip
    assert result.accepted and set(result.axioms or ()) == STANDARD_AXIOMS

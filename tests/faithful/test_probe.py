import pytest

from paperlint.faithful.junk import junk_assignments
from paperlint.faithful.probe import (
    is_literal,
    negation_candidate,
    plausible_candidate,
    probe_statement,
    witness_candidate,
)
from paperlint.faithful.statement import parse_statement
from paperlint.records.faithfulness import ProbeStep
from tests.faithful.conftest import CONTEXT
from tests.faithful.lean_answers import Author, counterexample, error, ok, when

SQ = "theorem sq_sub (m n : ℕ) : (m - n) ^ 2 = m ^ 2 - 2 * m * n + n ^ 2 := by\n  sorry"
PROP = "∀ (m n : ℕ), (m - n) ^ 2 = m ^ 2 - 2 * m * n + n ^ 2"
NOT_TESTABLE = error("failed to synthesize\n  Plausible.Testable (∀ (m n : ℕ), …)", line=2)


def test_candidate_texts():
    s = parse_statement(SQ)
    assert plausible_candidate(s) == f"theorem sq_sub_plausible : {PROP} := by\n  plausible"
    assert negation_candidate(s, "decide") == f"theorem sq_sub_refuted : ¬ ({PROP}) := by\n  decide"
    assert witness_candidate(s, {"m": "0", "n": "1"}) == (
        f"theorem sq_sub_refuted : ¬ ({PROP}) := by\n  intro h_cex\n"
        "  replace h_cex := h_cex (m := 0) (n := 1)\n"
        "  first | (norm_num at h_cex; done) | (simp at h_cex; done) | omega"
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (SQ, [{"m": "0", "n": "1"}]),
        (
            "theorem d (x y : ℝ) (h : 0 < y) : x / y * y = x := sorry",
            [{"x": "0", "y": "0"}, {"x": "1", "y": "0"}],
        ),
        ("theorem s (n : ℕ) : ∑ i ∈ Finset.range n, i ≥ 1 := sorry", [{"n": "0"}]),
        ("theorem e (s : Finset ℕ) : ∑ i ∈ s, i ≥ 1 := sorry", [{"s": "∅"}]),
        ("theorem p (S : Set ℝ) : 0 < sSup S := sorry", [{"S": "∅"}]),
        ("theorem k (n : ℕ) : n - 1 + 1 = n := sorry", [{"n": "0"}]),
        ("theorem r (x y : ℝ) : x - y + y = x := sorry", []),  # real subtraction is not junk
        ("theorem c (x : ℝ) : x * 2 = x + x := sorry", []),
    ],
)
def test_junk_assignments(text, expected):
    assert junk_assignments(parse_statement(text)) == expected


def test_plausible_witness_is_compiled_before_it_counts(replayed):
    rules = [
        when("plausible", counterexample({"m": "0", "n": "1"}, "0 = 1 does not hold")),
        when("h_cex (m := 0) (n := 1)", ok()),
    ]
    result, author = replayed(rules, lambda v: probe_statement(v, CONTEXT, SQ, timeout_s=60))
    assert result.refuted and result.refutation.step is ProbeStep.WITNESS
    assert result.refutation.assignment == {"m": "0", "n": "1"}
    assert result.refutation.target == "sq_sub_refuted"
    assert result.refutation.axioms == ("propext", "Classical.choice", "Quot.sound")
    assert result.refutation.declaration.startswith("theorem sq_sub_refuted : ¬ (")
    assert len(author.checks) == 2


def test_junk_value_refutes_when_plausible_cannot_test(replayed):
    rules = [when("plausible", NOT_TESTABLE), when("h_cex (m := 0) (n := 1)", ok())]
    result, _ = replayed(rules, lambda v: probe_statement(v, CONTEXT, SQ, timeout_s=60))
    assert result.refutation.step is ProbeStep.JUNK
    assert [a.label for a in result.attempts] == ["plausible", "junk"]


def test_negation_ladder_runs_last(replayed):
    text = "theorem two : (2 : ℕ) + 2 = 5 := sorry"
    rules = [when("plausible", NOT_TESTABLE), when("norm_num", ok())]
    result, _ = replayed(rules, lambda v: probe_statement(v, CONTEXT, text, timeout_s=60))
    assert result.refutation.step is ProbeStep.NEGATION
    assert [a.label for a in result.attempts] == ["plausible", "negation", "negation"]


def test_a_witness_that_does_not_compile_stays_a_hint(replayed):
    rules = [when("plausible", counterexample({"m": "0", "n": "1"}, "0 = 1 does not hold"))]
    result, author = replayed(rules, lambda v: probe_statement(v, CONTEXT, SQ, timeout_s=60))
    assert not result.refuted and result.hint == {"m": "0", "n": "1"}
    # plausible, its witness, the junk case (the same assignment, checked again), 4 tactics
    assert len(author.checks) == 7


def test_a_refutation_with_other_axioms_is_not_accepted():
    author = Author([when("plausible", NOT_TESTABLE), when("(m := 0)", ok())],
                    axioms="[propext, Lean.ofReduceBool]")  # fmt: skip
    result = probe_statement(author, CONTEXT, SQ, timeout_s=60)
    assert not result.refuted
    assert all(a.code is None or a.code.value != "sorry" for a in result.attempts)
    assert any(a.code and a.code.value == "disallowed_axioms" for a in result.attempts)


@pytest.mark.parametrize(
    ("value", "ok_"),
    [("0", True), ("-3", True), ("1/2", True), ("[0, 1]", True), ("true", True),
     ("x", False), ("(by exact?)", False), ('"s"', False), ("#eval 1", False)],
)  # fmt: skip
def test_only_literal_values_enter_a_witness(value, ok_):
    assert is_literal(value) is ok_

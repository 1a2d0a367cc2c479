from pathlib import Path

from paperlint.faithful.ladder import (
    check_equivalence,
    convert_args,
    rung_candidate,
    suggested_term,
)
from paperlint.faithful.statement import parse_statement
from paperlint.lean.replay import ReplayVerifier
from paperlint.lean.verifier import LeanCheck, LeanMessage, Outcome
from paperlint.records.faithfulness import Agreement, Direction, LadderRung
from tests.faithful.conftest import CONTEXT
from tests.faithful.lean_answers import error, ok, try_this, when

A = "theorem mid_le (x y : ℝ) (h : x ≤ y) : (x + y) / 2 ≤ y := by\n  sorry"
B = "theorem mid_le' (a b : ℝ) (hab : a ≤ b) : (a + b) / 2 ≤ b := by\n  sorry"
LE = "theorem sq_le (x : ℝ) (h0 : 0 ≤ x) (h1 : x ≤ 1) : x ^ 2 ≤ x := by\n  sorry"
LT = "theorem sq_le (x : ℝ) (h0 : 0 ≤ x) (h1 : x < 1) : x ^ 2 ≤ x := by\n  sorry"


def test_rung_texts_are_whole_declarations():
    a, b = parse_statement(A), parse_statement(B)
    head = (
        "theorem n (h_src_faithful : ∀ (x y : ℝ) (h : x ≤ y), (x + y) / 2 ≤ y) :\n"
        "    ∀ (a b : ℝ) (hab : a ≤ b), (a + b) / 2 ≤ b := by\n  intro a b hab\n  "
    )
    closers = "first | assumption | simp_all | omega | linarith"
    expected = {
        LadderRung.APPLY: f"apply h_src_faithful <;> {closers}",
        LadderRung.EXACT_SEARCH: "exact?",
        LadderRung.CONVERT_1: f"convert h_src_faithful a b ?_ using 1 <;> {closers}",
        LadderRung.CONVERT_2: f"convert h_src_faithful a b ?_ using 2 <;> {closers}",
        LadderRung.SIMP_ALL: "simp_all",
        LadderRung.AESOP: "aesop",
    }
    for rung, line in expected.items():
        assert rung_candidate(rung, a, b, "n") == head + line


def test_convert_arguments_follow_positions_and_types():
    source = parse_statement("theorem s (n : ℕ) (x : ℝ) (h : 0 < x) (k : ℕ) : True := sorry")
    target = parse_statement("theorem t (m : ℕ) (y : ℤ) (k : ℕ) : True := sorry")
    assert convert_args(source, target) == ["m", "_", "?_", "k"]


def test_type_star_is_compared_at_one_universe():
    a = parse_statement("theorem c {α : Type*} [Fintype α] : 0 ≤ Fintype.card α := sorry")
    text = rung_candidate(LadderRung.SIMP_ALL, a, a, "n")
    assert text.startswith("theorem n.{u_faithful} (h_src_faithful : ∀ {α : Type u_faithful}")
    assert "intro α _\n  simp_all" in text


def test_two_drafts_proved_equivalent_by_apply(replayed):
    result, author = replayed(
        [when("apply h_src_faithful", ok())],
        lambda v: check_equivalence(v, CONTEXT, A, B, timeout_s=60),
    )
    assert result.agreement is Agreement.EQUIVALENT and result.failing == ()
    assert result.forward.rung is LadderRung.APPLY and result.backward.rung is LadderRung.APPLY
    assert result.forward.target == "mid_le_faithful_fwd"
    assert result.backward.proof.startswith("theorem mid_le_faithful_bwd (h_src_faithful : ∀ (a b")
    assert len(author.checks) == 2  # one Lean check per direction
    assert all(a.replay and a.axioms for a in result.attempts())


def test_exact_search_is_kept_only_through_its_concrete_term(replayed):
    rules = [
        when("exact h_src_faithful _ _ (le_of_lt hab)", ok()),
        when("exact?", try_this("exact h_src_faithful _ _ (le_of_lt hab)")),
    ]
    lt = "theorem t (a b : ℝ) (hab : a < b) : (a + b) / 2 ≤ b := sorry"
    result, _ = replayed(rules, lambda v: check_equivalence(v, CONTEXT, A, lt, timeout_s=60))
    forward = result.forward
    assert forward.proved and forward.rung is LadderRung.EXACT_SEARCH
    assert "exact?" not in forward.proof
    assert forward.proof.endswith("  intro a b hab\n  exact h_src_faithful _ _ (le_of_lt hab)")
    labels = [a.label for a in forward.attempts]
    assert labels == ["apply", "exact?", "exact? → exact h_src_faithful _ _ (le_of_lt hab)"]


def test_lt_against_le_fails_in_one_direction(replayed):
    # `x < 1` is stronger than `x ≤ 1`: the ≤ draft implies the < draft, not conversely.
    rules = [
        lambda c: ok() if "(h1 : x ≤ 1), x ^ 2 ≤ x) :" in c and "apply" in c else None,
        when("apply", error("linarith failed to find a contradiction\ncase h1\n⊢ x < 1")),
    ]
    result, author = replayed(rules, lambda v: check_equivalence(v, CONTEXT, LE, LT, timeout_s=60))
    assert result.agreement is Agreement.FIRST_IMPLIES_SECOND
    assert result.failing == (Direction.BACKWARD,)
    assert [a.label for a in result.backward.attempts] == [r.value for r in LadderRung]
    assert len(author.checks) == 1 + len(LadderRung)


def test_no_lean_gives_no_answer_and_stops_early(tmp_path: Path):
    empty = ReplayVerifier(tmp_path)  # no recordings: every request is unavailable
    result = check_equivalence(empty, CONTEXT, A, B, timeout_s=60)
    assert result.agreement is Agreement.NO_ANSWER
    assert len(result.forward.attempts) == 1 and len(result.backward.attempts) == 1


def test_unreadable_statement_runs_nothing(tmp_path: Path):
    result = check_equivalence(ReplayVerifier(tmp_path), CONTEXT, A, "def d := 3", timeout_s=60)
    assert result.agreement is Agreement.UNREADABLE and result.forward is None


def test_suggestions_that_are_not_concrete_are_ignored():
    def check(*texts: str) -> LeanCheck:
        messages = tuple(LeanMessage(severity="info", line=1, column=0, text=t) for t in texts)
        return LeanCheck(outcome=Outcome.ACCEPTED, messages=messages)

    assert suggested_term(check("Try this: exact foo")) == "exact foo"
    assert suggested_term(check("Try this:\n  [apply] exact foo x")) == "exact foo x"
    assert suggested_term(check("Try this: exact?")) is None
    assert suggested_term(check("Try this: simp")) is None
    assert suggested_term(check("something else")) is None

from pathlib import Path

from paperlint.faithful.ladder import check_equivalence
from paperlint.faithful.minimal import minimal_hypotheses, without_hypothesis
from paperlint.faithful.probe import probe_statement
from paperlint.faithful.recheck import Recheck, recheck
from paperlint.faithful.restate import carried_proof, check_restatement
from paperlint.faithful.statement import parse_statement
from paperlint.lean.replay import ReplayVerifier
from paperlint.records.faithfulness import FaithfulnessEvidence
from paperlint.records.faithfulness import HypothesisStatus as H
from tests.faithful.conftest import CONTEXT
from tests.faithful.lean_answers import Author, counterexample, ok, when

VERIFIED = (
    "theorem le_abs (x y : ℝ) (hx : 0 ≤ x) (hxy : x ≤ y) (hy : 0 ≤ y) (hpos : 0 < y + 1) :\n"
    "    x ≤ |y| := by\n  have := hy\n  exact le_trans hxy (le_abs_self y)"
)


def test_variant_text_keeps_the_proof():
    s = parse_statement(VERIFIED)
    assert without_hypothesis(s, "hx") == (
        "theorem le_abs_without_hx (x y : ℝ) (hxy : x ≤ y) (hy : 0 ≤ y) (hpos : 0 < y + 1) : "
        "x ≤ |y| := by\n  have := hy\n  exact le_trans hxy (le_abs_self y)"
    )


def test_unneeded_hypothesis_is_reported(replayed):
    rules = [when("le_abs_without_hx", ok())]  # without hpos: the default answer, an error
    result, author = replayed(
        rules, lambda v: minimal_hypotheses(v, CONTEXT, VERIFIED, timeout_s=60)
    )
    assert [(c.name, c.status) for c in result.checks] == [
        ("hx", H.UNNEEDED),
        ("hxy", H.NAMED_IN_PROOF),
        ("hy", H.NAMED_IN_PROOF),
        ("hpos", H.NEEDED),
    ]
    assert [c.name for c in result.unneeded] == ["hx"]
    assert len(author.checks) == 2  # named hypotheses cost no call


def test_hypothesis_mentioned_by_the_statement_is_not_removed():
    text = "theorem t (x : ℝ) (h : 0 < x) (h2 : h = h) : 0 < x := h"
    author = Author([])
    result = minimal_hypotheses(author, CONTEXT, text, timeout_s=60)
    assert [(c.name, c.status) for c in result.checks] == [
        ("h", H.IN_STATEMENT),
        ("h2", H.NEEDED),
    ]


def test_sorry_stub_or_unreadable_is_skipped():
    assert minimal_hypotheses(Author([]), CONTEXT, "def d := 3", timeout_s=1).skipped


OLD = "theorem mid_le (x y : ℝ) (h : x ≤ y) : (x + y) / 2 ≤ y := by\n  linarith"
NEW = "theorem mid_le (a b : ℝ) (hab : a ≤ b) : (a + b) / 2 ≤ b := by\n  sorry"


def test_equivalent_restatement_keeps_its_proof(replayed):
    context = CONTEXT.extended(OLD)
    rules = [when("apply h_src_faithful", ok()), when("exact h_equiv mid_le a b hab", ok())]
    result, _ = replayed(
        rules,
        lambda v: check_restatement(v, context, OLD, NEW, old_name="mid_le", timeout_s=60),
    )
    assert result.keeps_proof
    assert result.carried_proof == (
        "theorem mid_le (a b : ℝ) (hab : a ≤ b) : (a + b) / 2 ≤ b := by\n"
        "  have h_equiv : (∀ (x y : ℝ) (h : x ≤ y), (x + y) / 2 ≤ y) → "
        "(∀ (a b : ℝ) (hab : a ≤ b), (a + b) / 2 ≤ b) := by\n"
        "    intro h_src_faithful\n    intro a b hab\n"
        "    apply h_src_faithful <;> first | assumption | simp_all | omega | linarith\n"
        "  exact h_equiv mid_le a b hab"
    )


def test_inequivalent_restatement_is_reproved(replayed):
    context = CONTEXT.extended(OLD)
    weaker = "theorem mid_le (a b : ℝ) (hab : a < b) : (a + b) / 2 < b := by\n  sorry"
    result, author = replayed(
        [], lambda v: check_restatement(v, context, OLD, weaker, old_name="mid_le", timeout_s=60)
    )
    assert not result.keeps_proof and result.attempt is None
    assert not any("h_equiv" in c for c in author.checks)


def test_carry_is_not_written_for_type_star():
    old = "theorem c {α : Type*} [Fintype α] : 0 ≤ Fintype.card α := sorry"
    assert carried_proof(old, "c", old, "theorem n (h : P) :\n    Q := by\n  simp_all") is None


def test_recheck_confirms_disagrees_and_reports_unchecked(replayed, tmp_path: Path):
    a = "theorem mid_le (x y : ℝ) (h : x ≤ y) : (x + y) / 2 ≤ y := by\n  sorry"
    b = "theorem mid_le' (a b : ℝ) (hab : a ≤ b) : (a + b) / 2 ≤ b := by\n  sorry"
    sq = "theorem sq_sub (m n : ℕ) : (m - n) ^ 2 = m ^ 2 - 2 * m * n + n ^ 2 := by\n  sorry"
    rules = [
        when("apply h_src_faithful", ok()),
        when("plausible", counterexample({"m": "0", "n": "1"}, "0 = 1 does not hold")),
        when("(m := 0) (n := 1)", ok()),
    ]

    def run(v):
        return FaithfulnessEvidence(
            result="lem:x",
            context=CONTEXT,
            equivalence=check_equivalence(v, CONTEXT, a, b, timeout_s=60),
            probe=probe_statement(v, CONTEXT, sq, timeout_s=60),
        )

    evidence, _ = replayed(rules, run)
    replay = ReplayVerifier(tmp_path)
    checks = recheck(replay, evidence, timeout_s=60)
    assert [(c.claim.what, c.status) for c in checks] == [
        ("first_implies_second", Recheck.CONFIRMED),
        ("second_implies_first", Recheck.CONFIRMED),
        ("refutation", Recheck.CONFIRMED),
    ]
    # A tampered record: the claimed refutation text is not what Lean accepted.
    ref = evidence.probe.refutation.model_copy(
        update={"declaration": evidence.probe.refutation.declaration.replace("n := 1", "n := 2")}
    )
    tampered = evidence.model_copy(
        update={"probe": evidence.probe.model_copy(update={"refutation": ref})}
    )
    statuses = [c.status for c in recheck(replay, tampered, timeout_s=60)]
    assert statuses[-1] is Recheck.UNCHECKED  # no recording for the edited text: never "ok"
    strict = Author([when("apply h_src_faithful", ok())])  # Lean that rejects the edit
    assert [c.status for c in recheck(strict, tampered, timeout_s=60)][-1] is Recheck.DISAGREES
    assert FaithfulnessEvidence.model_validate_json(evidence.model_dump_json()) == evidence

import pytest

from paperlint.lean.unused import unused_hypotheses


def _report(text):
    return [(f.message.split("`")[1], f.blocking) for f in unused_hypotheses(text)]


def test_unused_hypothesis_is_a_blocking_finding():
    text = (
        "theorem t (x : ℕ) (h : x < x) (hx : 0 < x) : x = x := by\n  exact absurd h (lt_irrefl x)"
    )
    assert _report(text) == [("hx", True)]


def test_use_in_statement_other_binder_or_proof_counts():
    text = (
        "theorem t {n : ℕ} (x : ℝ) (hx : 0 < x) (h : n = 1) : x ≠ 0 := by\n"
        "  subst h\n  exact hx.ne'"
    )
    assert _report(text) == []


@pytest.mark.parametrize("proof", ["by linarith", "by simp_all", "by simp [*]", "by exact ‹_›"])
def test_automation_downgrades_to_advisory(proof):
    text = f"theorem t (x : ℝ) (h : 0 < x) (h2 : 1 < x) : 0 < x + 1 := {proof}"
    assert _report(text) == [("h", False), ("h2", False)]


def test_multiplication_star_is_not_a_wildcard():
    text = "theorem t (x : ℝ) (h : 0 < x) : x * 1 = x := by rw [mul_one]"
    assert _report(text) == [("h", True)]


def test_anonymous_instances_and_underscores_are_skipped():
    text = "theorem t {α : Type} [Fintype α] (_h : True) (inst : Unit) : True := trivial"
    assert _report(text) == []


def test_named_instance_binder_is_advisory():
    text = "theorem t {α : Type} [hα : Nonempty α] : True := trivial"
    assert _report(text) == [("hα", False)]


def test_sorry_stubs_definitions_and_axioms_are_skipped():
    text = (
        "theorem s (h : False) : True := by sorry\n"
        "def d (h : False) : ℕ := 1\n"
        "axiom a (h : False) : True\n"
    )
    assert _report(text) == []


def test_position_is_the_binder_name():
    [finding] = unused_hypotheses("theorem t\n    (h : 1 = 1) : True := trivial", file="T.lean")
    assert (finding.file, finding.line, finding.col) == ("T.lean", 2, 5)

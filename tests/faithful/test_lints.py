# ruff: noqa: E501  (a case table reads best one case per line)
"""Case table: Lean snippet (+ the paper's TeX) → the advisory lints it must raise, and the
clean neighbours that must raise nothing."""

import pytest

from paperlint.faithful.lints import lint_definition, lint_statement
from paperlint.records.faithfulness import LintRule as R

REAL_TEX = r"For all $x, y \in \mathbb{R}$ we have $(x - y)^2 \ge 0$."
BEST_TEX = r"The constant $2$ is the best constant in $|f| \le 2\|g\|$."

CASES = [
    # conclusion repeats a hypothesis
    ("theorem t (x : ℝ) (h : 0 < x) : 0 < x := sorry", None, [(R.CONCLUSION_REPEATS_HYPOTHESIS, "h")]),
    ("theorem t (x : ℝ) (h : 0 < x) : (0 < x) ∧ x ≠ 1 := sorry", None,
     [(R.CONCLUSION_REPEATS_HYPOTHESIS, "h")]),
    ("theorem t (x : ℝ) (h : 0 < x) : 0 < x ^ 2 := sorry", None, []),
    # unused explicit binder
    ("theorem t (x y : ℝ) (h : 0 < x) : 0 < x ^ 2 := sorry", None, [(R.UNUSED_BINDER, "y")]),
    ("theorem t (n : ℕ) (f : Fin n → ℝ) : 0 ≤ ∑ i, f i ^ 2 := sorry", None, []),
    ("theorem t {α : Type*} (x : ℝ) : x = x := sorry", None, []),
    # ∃! with a pinned witness
    ("theorem t (a : ℝ) : ∃! x : ℝ, x = a + 1 := sorry", None, [(R.PINNED_UNIQUE, "∃")]),
    ("theorem t (a : ℝ) : ∃! x : ℝ, 0 < x ∧ x = a := sorry", None, [(R.PINNED_UNIQUE, "∃")]),
    ("theorem t (a : ℝ) (h : 0 < a) : ∃! x : ℝ, 0 < x ∧ x ^ 2 = a := sorry", None, []),
    # ℕ subtraction / division where the paper means reals
    ("theorem t (x y : ℕ) : 0 ≤ (x - y) ^ 2 := sorry", REAL_TEX, [(R.NAT_ARITHMETIC, "-")]),
    ("theorem t (x y : ℕ) : x / y ≤ x := sorry", REAL_TEX, [(R.NAT_ARITHMETIC, "/")]),
    ("theorem t (x y : ℕ) : 0 ≤ ((x - y : ℝ)) ^ 2 := sorry", REAL_TEX, []),
    ("theorem t (x y : ℝ) : 0 ≤ (x - y) ^ 2 := sorry", REAL_TEX, []),
    ("theorem t (x y : ℕ) : 0 ≤ (x - y) ^ 2 := sorry", r"For $m, n \in \mathbb{N}$ …", []),
    ("theorem t (x y : ℕ) : 0 ≤ (x - y) ^ 2 := sorry", None, []),  # no paper text: no signal
    # junk defaults
    ("theorem t (S : Set ℝ) (h : S.Nonempty) : 0 ≤ sSup S := sorry", None, [(R.JUNK_DEFAULT, "sSup")]),
    ("theorem t (S : Set ℝ) (h : BddAbove S) : 0 ≤ sSup S := sorry", None, []),
    ("theorem t (f : ℕ → ℝ) : 0 ≤ ⨆ n, f n := sorry", None, [(R.JUNK_DEFAULT, "⨆")]),
    ("theorem t (u : ℕ → ℝ) : limUnder Filter.atTop u = 0 := sorry", None,
     [(R.JUNK_DEFAULT, "limUnder")]),
    ("theorem t (u : ℕ → ℝ) (h : Filter.Tendsto u Filter.atTop (nhds 0)) : "
     "limUnder Filter.atTop u = 0 := sorry", None, []),
    # bare bound where the paper asks for the best constant
    ("theorem t (f g : ℝ) (h : |f| ≤ |g|) : |f| ≤ 2 * |g| := sorry", BEST_TEX, [(R.BARE_BOUND, "≤")]),
    ("theorem t : IsLeast {c : ℝ | ∀ f g : ℝ, |f| ≤ |g| → |f| ≤ c * |g|} 1 := sorry", BEST_TEX, []),
    ("theorem t (f g : ℝ) (h : |f| ≤ |g|) : |f| ≤ 2 * |g| := sorry", REAL_TEX, []),
]  # fmt: skip


@pytest.mark.parametrize(("lean", "tex", "expected"), CASES)
def test_statement_lints(lean, tex, expected):
    found = lint_statement(lean, tex=tex)
    assert [(f.rule, f.subject) for f in found] == expected
    assert all(f.advisory for f in found)


DEFINITIONS = [
    ("def Good (x : ℝ) : Prop := 0 < x ∧ True", [(R.TRUE_IN_DEFINITION, "True")]),
    ("def Trivial : Prop := True", [(R.TRUE_IN_DEFINITION, "True")]),
    ("def Good (x : ℝ) : Prop := 0 < x", []),
    ("def MyMono (f : ℝ → ℝ) : Prop := Monotone f", [(R.ALIAS_DEFINITION, "Monotone")]),
    ("def Inc : (ℝ → ℝ) → Prop := fun f => Monotone f", [(R.ALIAS_DEFINITION, "Monotone")]),
    ("def Inc : (ℝ → ℝ) → Prop := Monotone", [(R.ALIAS_DEFINITION, "Monotone")]),
    ("def Pos (f : ℝ → ℝ) : Prop := Monotone f ∧ ∀ x, 0 < f x", []),
    ("def Top (S : Set ℝ) : ℝ := sSup S", [(R.ALIAS_DEFINITION, "sSup"), (R.JUNK_DEFAULT, "sSup")]),
    ("def Top (S : Set ℝ) (h : BddAbove S) : ℝ := sSup S + 1", []),
    ("theorem th : True := trivial", []),  # not a definition
]


@pytest.mark.parametrize(("lean", "expected"), DEFINITIONS)
def test_definition_lints(lean, expected):
    assert [(f.rule, f.subject) for f in lint_definition(lean)] == expected


def test_lints_carry_positions_and_render():
    [lint] = lint_statement("theorem t (x : ℝ)\n    (h : 0 < x) : 0 < x := sorry")
    assert (lint.line, lint.col, lint.source) == (2, 5, "statement")
    assert lint.render() == (
        "statement:2:5: conclusion-repeats-hypothesis: the conclusion repeats hypothesis `h` "
        "(0 < x) (advisory)"
    )
    [alias] = lint_statement("theorem t : True := trivial", definitions=["def P : Prop := Q"])
    assert alias.source == "P" and alias.rule is R.ALIAS_DEFINITION


def test_hostile_or_broken_text_raises_nothing():
    for text in ["", "theorem", "theorem t (x : ℝ", "def f.{u} : Sort u", "/- open"]:
        assert lint_statement(text, definitions=[text], tex=text) == []

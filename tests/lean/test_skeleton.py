import re
from pathlib import Path

import pytest

from paperlint.lean.findings import Rule
from paperlint.lean.skeleton import check_skeleton

CASES = sorted((Path(__file__).resolve().parents[2] / "fixtures" / "lean" / "skeleton").iterdir())

SKELETON = """import Mathlib.Tactic

namespace Paper

theorem main (x : ℕ) (h : 0 < x) : 1 ≤ x := by
  sorry

def w (n : ℕ) : ℕ := n + 1

end Paper
"""


def _rules(candidate, skeleton=SKELETON, **kwargs):
    return [f.rule for f in check_skeleton(skeleton, candidate, **kwargs)]


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name)
def test_skeleton_fixture_gives_exactly_the_expected_rules(case):
    candidate = (case / "candidate.lean").read_text()
    expected = set(re.findall(r"^-- expect: (\S+)", candidate, re.M)) - {"nothing"}
    findings = check_skeleton((case / "skeleton.lean").read_text(), candidate)
    assert {f.rule.value for f in findings} == expected, [f.render() for f in findings]


def test_filling_the_hole_is_accepted():
    assert _rules(SKELETON.replace("  sorry", "  omega")) == []


def test_reformatting_and_comments_in_the_statement_are_not_a_change():
    candidate = SKELETON.replace(
        "theorem main (x : ℕ) (h : 0 < x) : 1 ≤ x := by\n  sorry",
        "theorem main (x : ℕ) -- the point\n    (h : 0 < x) :\n    1 ≤ x := by\n  omega",
    )
    assert _rules(candidate) == []


def test_weakened_statement_is_caught():
    candidate = SKELETON.replace("1 ≤ x := by\n  sorry", "0 ≤ x := by\n  omega")
    assert _rules(candidate) == [Rule.STATEMENT_CHANGED]


def test_arrow_respelling_counts_as_a_change():
    skeleton = "theorem t (p q : Prop) : p → q := by\n  sorry\n"
    candidate = "theorem t (p q : Prop) : p -> q := by\n  intro hp\n  exact absurd hp hp\n"
    assert Rule.STATEMENT_CHANGED in _rules(candidate, skeleton=skeleton, include_hygiene=False)


def test_definition_body_is_frozen():
    candidate = SKELETON.replace("  sorry", "  omega").replace("n + 1", "n + 2")
    assert _rules(candidate) == [Rule.DECLARATION_CHANGED]


def test_proof_outside_a_hole_is_frozen():
    skeleton = "theorem t : 1 = 1 := by\n  have h : 2 = 2 := sorry\n  rfl\n"
    assert _rules("theorem t : 1 = 1 := by\n  have h : 2 = 2 := rfl\n  rfl\n", skeleton) == []
    changed = "theorem t : 1 = 1 := by\n  have h : 2 = 2 := rfl\n  simp\n"
    assert _rules(changed, skeleton) == [Rule.DECLARATION_CHANGED]


def test_removed_renamed_and_duplicated_declarations():
    renamed = SKELETON.replace("theorem main", "theorem main'").replace("  sorry", "  omega")
    assert _rules(renamed) == [Rule.DECLARATION_REMOVED]
    twice = SKELETON.replace("  sorry", "  omega").replace(
        "end Paper", "theorem main : True := trivial\n\nend Paper"
    )
    assert Rule.DUPLICATE_DECLARATION in _rules(twice)


def test_reordering_gated_declarations_is_caught():
    skeleton = "theorem a : True := sorry\ntheorem b : True := sorry\n"
    candidate = "theorem b : True := trivial\ntheorem a : True := trivial\n"
    assert _rules(candidate, skeleton=skeleton) == [Rule.DECLARATION_REORDERED]


def test_helper_lemmas_are_allowed_but_scanned():
    helper = "lemma helper (x : ℕ) (h : 0 < x) : 1 ≤ x := h\n\n"
    candidate = SKELETON.replace("theorem main", helper + "theorem main").replace(
        "  sorry", "  exact helper x h"
    )
    assert _rules(candidate) == []
    cheating = candidate.replace(":= h\n", ":= by native_decide\n")
    assert _rules(cheating) == [Rule.NATIVE_DECIDE]


def test_helper_shadowing_a_statement_name_is_refused():
    skeleton = "theorem t (x : ℕ) : f x = x := sorry\n"
    candidate = "def f (x : ℕ) : ℕ := x\ntheorem t (x : ℕ) : f x = x := rfl\n"
    assert _rules(candidate, skeleton=skeleton) == [Rule.HELPER_NOT_ALLOWED]


def test_new_open_or_instance_is_refused_but_open_in_on_a_helper_is_fine():
    opened = SKELETON.replace("namespace Paper\n", "namespace Paper\nopen Real\n")
    assert _rules(opened.replace("  sorry", "  omega")) == [Rule.CONTEXT_CHANGED]
    helper = "open Real in\nlemma helper : True := trivial\n\n"
    candidate = SKELETON.replace("theorem main", helper + "theorem main")
    assert _rules(candidate.replace("  sorry", "  omega")) == []


def test_open_in_prefix_on_a_gated_statement_is_a_statement_change():
    candidate = SKELETON.replace("theorem main", "open Real in\ntheorem main")
    assert _rules(candidate.replace("  sorry", "  omega")) == [Rule.STATEMENT_CHANGED]


def test_header_may_only_gain_mathlib_imports():
    more = SKELETON.replace("import Mathlib.Tactic", "import Mathlib.Tactic\nimport Mathlib.Order")
    assert _rules(more.replace("  sorry", "  omega")) == []
    fewer = SKELETON.replace("import Mathlib.Tactic\n", "")
    assert _rules(fewer.replace("  sorry", "  omega")) == [Rule.HEADER_CHANGED]


def test_remaining_sorry_is_reported_by_the_hygiene_part():
    assert _rules(SKELETON) == [Rule.SORRY]
    assert _rules(SKELETON, include_hygiene=False) == []


def test_unnamed_instances_are_matched_by_statement():
    skeleton = "instance : Inhabited ℕ := ⟨0⟩\ntheorem t : True := sorry\n"
    assert _rules("instance : Inhabited ℕ := ⟨0⟩\ntheorem t : True := trivial\n", skeleton) == []
    changed = "instance : Inhabited ℕ := ⟨1⟩\ntheorem t : True := trivial\n"
    assert _rules(changed, skeleton) == [Rule.DECLARATION_CHANGED]
    removed = "theorem t : True := trivial\n"
    assert _rules(removed, skeleton) == [Rule.DECLARATION_REMOVED]
    added = "instance : Inhabited ℤ := ⟨0⟩\n" + skeleton.replace("sorry", "trivial")
    assert _rules(added, skeleton) == [Rule.HELPER_NOT_ALLOWED]

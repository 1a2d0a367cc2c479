from paperlint.lean.fingerprint import fingerprint, normalize_statement, statement_fingerprints

TEXT = """import Mathlib.Tactic

namespace Paper

/-- doc -/
theorem foo' (x : ℝ) (h : 0 ≤ x) : 0 ≤ x ^ 2 := by positivity

open Real in
lemma bar : ∀ n : ℕ, n = n
  | 0 => rfl
  | n + 1 => rfl

structure S where
  a : ℕ

end Paper

theorem _root_.top_level : |(-1 : ℤ)| = 1 := by simp
"""


def test_fingerprints_are_keyed_by_qualified_name():
    prints = statement_fingerprints(TEXT)
    assert set(prints) == {"Paper.foo'", "Paper.bar", "Paper.S", "top_level"}
    assert all(p.startswith("sha256:") and len(p) == 7 + 64 for p in prints.values())


def test_proof_changes_do_not_change_the_fingerprint():
    changed = TEXT.replace("by positivity", "by\n  nlinarith [sq_nonneg x]")
    assert statement_fingerprints(changed) == statement_fingerprints(TEXT)


def test_whitespace_and_comments_do_not_change_the_fingerprint():
    changed = TEXT.replace("(x : ℝ) (h", "(x : ℝ) /- note -/\n    (h")
    assert statement_fingerprints(changed) == statement_fingerprints(TEXT)


def test_statement_changes_do():
    changed = TEXT.replace("0 ≤ x ^ 2", "0 ≤ x ^ 4")
    before, after = statement_fingerprints(TEXT), statement_fingerprints(changed)
    assert before["Paper.foo'"] != after["Paper.foo'"]
    assert before["Paper.bar"] == after["Paper.bar"]


def test_open_in_prefix_is_part_of_the_statement():
    changed = TEXT.replace("open Real in\n", "")
    assert statement_fingerprints(changed)["Paper.bar"] != statement_fingerprints(TEXT)["Paper.bar"]


def test_absolute_value_bars_do_not_end_the_statement():
    assert (
        statement_fingerprints(TEXT)["top_level"]
        != statement_fingerprints(TEXT.replace("= 1 := by simp", "= 2 := by simp"))["top_level"]
    )


def test_elaborated_type_is_folded_in_when_given():
    plain = fingerprint("theorem t : 1 = 1")
    assert fingerprint("theorem  t :\n 1 = 1 -- c") == plain
    assert fingerprint("theorem t : 1 = 1", elaborated_type="1 = 1") != plain
    assert fingerprint("theorem t : 1 = 1", "@Eq ℕ 1 1") != fingerprint(
        "theorem t : 1 = 1", "1 = 1"
    )


def test_normalize_keeps_arrows_as_written():
    assert normalize_statement("p  →\n q") == "p → q"
    assert normalize_statement("p -> q") != normalize_statement("p → q")


def test_namespaces_follow_mutual_blocks_and_dotted_ends():
    text = (
        "namespace A\nnamespace B\nmutual\ntheorem x : True := trivial\nend\n"
        "theorem y : True := trivial\nend A.B\ntheorem z : True := trivial\n"
    )
    assert set(statement_fingerprints(text)) == {"A.B.x", "A.B.y", "z"}

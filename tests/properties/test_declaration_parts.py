"""There is one Lean declaration parser (`lean/declarations.py`, on the lexer); the Lean-text
composition (`lean/compose.parse_declaration`) reads its split. Property: for declarations
built from awkward pieces (nested block comments, `')'` character literals, strings holding
`:=`), the two readings agree, and the parts are exactly the pieces the text was built from.
(`engine/leantext.py`, the second parser the issue named, no longer exists.)"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from paperlint.lean.compose import parse_declaration
from paperlint.lean.declarations import declarations

NAMES = st.sampled_from(["t", "foo_bar", "h₁", "x'", "mean_le"])
BINDERS = st.lists(
    st.sampled_from(
        [
            "(x : ℕ)",
            "{α : Type}",
            "[inst : Fintype α]",
            "(c : Char := ')')",
            '(s : String := ":= (")',
            "(h : x = /- a ) /- nested -/ := -/ x)",
        ]
    ),
    max_size=3,
)
TYPES = st.sampled_from(
    [
        "x = x",
        "')' ≠ '('",
        "∀ y : ℕ, y ≤ y /- a := b -/",
        '"a := b".length = 6',
        "(fun (z : ℕ) => z) 0 = 0",
    ]
)
BODIES = st.sampled_from(["by\n  sorry", "rfl", "by -- := not here\n  simp", "⟨')', rfl⟩"])
KEYWORDS = st.sampled_from(["theorem", "lemma"])


@given(KEYWORDS, NAMES, BINDERS, TYPES, BODIES)
def test_both_readings_agree_and_recover_the_pieces(keyword, name, binders, type_, body):
    text = f"{keyword} {name} {' '.join(binders)} : {type_} := {body}"
    parts = parse_declaration(text)
    found = declarations(text)
    assert parts is not None and len(found) == 1
    assert (parts.keyword, parts.name) == (keyword, name) == (found[0].kind, found[0].name)
    assert parts.binders == " ".join(binders)
    assert parts.type == type_
    assert parts.body == body
    assert found[0].terminator == ":="

"""The one declaration parser (built on the lexer) splits what the old regex parser got wrong,
and the one verdict-bearing rule gives blueprint and results the same answer."""

import pytest

from paperlint.domain import is_verdict_bearing
from paperlint.lean.compose import parse_declaration, refutation_statement, statement_text_exact


def test_nested_block_comment_does_not_hide_the_colon():
    parts = parse_declaration("theorem c /- a /- nested -/ : -/ (x : ℕ) : x = x := rfl")
    assert parts is not None
    assert parts.name == "c"
    assert parts.binders == "/- a /- nested -/ : -/ (x : ℕ)"
    assert parts.type == "x = x"
    assert parts.body == "rfl"


def test_paren_character_literal_does_not_unbalance_the_brackets():
    text = "theorem ch (c : Char) (h : c = ')') : c = ')' := h"
    parts = parse_declaration(text)
    assert parts is not None
    assert (parts.binders, parts.type, parts.body) == ("(c : Char) (h : c = ')')", "c = ')'", "h")
    assert statement_text_exact(text) == "theorem ch (c : Char) (h : c = ')') : c = ')'"
    assert refutation_statement(text, "ch_cex") == (
        "theorem ch_cex : ¬ (∀ (c : Char) (h : c = ')'), c = ')')"
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("def IsNice (x : ℝ) : Prop := True", ("def", "IsNice", "(x : ℝ)", "Prop", "True")),
        ("example : 1 = 1 := rfl", ("example", "", "", "1 = 1", "rfl")),
        (
            "@[simp] theorem s (a : ℕ) : a + 0 = a := by simp",
            ("theorem", "s", "(a : ℕ)", "a + 0 = a", "by simp"),
        ),
        ("theorem x : True", ("theorem", "x", "", "True", "")),
    ],
)
def test_ordinary_declarations_split_as_before(text, expected):
    parts = parse_declaration(text)
    assert parts is not None
    assert (parts.keyword, parts.name, parts.binders, parts.type, parts.body) == expected


@pytest.mark.parametrize("text", ["garbage", "theorem foo := 1", "open X in theorem t : True"])
def test_not_a_declaration(text):
    assert parse_declaration(text) is None


@pytest.mark.parametrize(
    ("kind", "restates", "bearing"),
    [
        ("theorem", None, True),
        ("claim", None, True),
        ("theorem", "thm:orig", False),
        ("conjecture", None, False),  # not claimed by the paper
        ("other", None, False),  # an environment preflight could not name
        ("definition", None, False),
    ],
)
def test_one_verdict_bearing_rule(kind, restates, bearing):
    assert is_verdict_bearing(kind, restates) is bearing

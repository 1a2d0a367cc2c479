"""The Lean lexer's tokens partition its input: every character is in exactly one token or
in the whitespace between two, in order, and each token's line and column are its offset's.

The text is drawn from Lean's awkward pieces (nested block comments, doc comments, character
literals against primed names, escapes, raw and interpolated strings, «guillemets», unclosed
everything) glued together at random, plus arbitrary Unicode text.
"""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from paperlint.lean.lexer import Kind, Token, tokenize

PIECES = [
    "/-",
    "-/",
    "/--",
    "/-!",
    "--",
    "\n",
    " ",
    "\t",
    "'",
    "\\",
    '"',
    "r#",
    "#",
    "r",
    "s!",
    "{",
    "}",
    "«",
    "»",
    ".",
    "x'",
    "h₁",
    "'a'",
    "'\\n'",
    "'\\''",
    "')'",
    "'\\x41'",
    "sorry",
    "theorem",
    "foo.bar",
    ":=",
    "=>",
    "<;>",
    "(",
    ")",
    "0.5",
    "12",
    "ℝ",
    "λ",
    "`",
    "``",
    "#eval",
    "\u2028",
    "\x0b",
    "é",
]
lean_like = st.lists(st.sampled_from(PIECES) | st.text(max_size=3), max_size=40).map("".join)


def _position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1)


def assert_partition(text: str, tokens: list[Token]) -> None:
    pos = 0
    for token in tokens:
        assert token.text, f"empty token at {token.offset}"
        assert token.offset >= pos, f"token at {token.offset} overlaps the one ending at {pos}"
        gap = text[pos : token.offset]
        assert gap.isspace() or not gap, f"non-whitespace {gap!r} at {pos} is in no token"
        assert text[token.offset : token.end] == token.text
        assert (token.line, token.col) == _position(text, token.offset)
        pos = token.end
    tail = text[pos:]
    assert tail.isspace() or not tail, f"non-whitespace {tail!r} at {pos} is in no token"


@given(lean_like)
@example("/- a /- b -/ c -/ d")
@example("theorem t : ')' = ')' := rfl")
@example('s!"a {x "b" y} c" z')
@example('s!"unclosed {')
@example("«a.b».c '")
def test_tokens_partition_lean_like_text(text: str) -> None:
    assert_partition(text, tokenize(text))


@given(st.text(max_size=200))
def test_tokens_partition_arbitrary_text(text: str) -> None:
    assert_partition(text, tokenize(text))


@given(lean_like)
def test_a_closed_block_comment_is_one_comment_whatever_it_holds(inside: str) -> None:
    # Balanced nesting: every `/-` inside is closed again, so the comment ends where it should.
    inside = inside.replace("-/", " ").replace("/-", " ")
    body = f"/- {inside} /- nested -/ -/"
    tokens = tokenize(f"{body}\nafter")
    assert tokens[0].kind is Kind.COMMENT and tokens[0].text == body
    assert [t.text for t in tokens[1:]] == ["after"]

import pytest

from paperlint.blueprint.fingerprint import normalise_tex, tex_sha256

BASE = r"Let $n \ge 1$. Then $\sum_{i=1}^n i = n(n+1)/2$."


@pytest.mark.parametrize(
    "variant",
    [
        "Let $n \\ge 1$.\n   Then $\\sum_{i=1}^n i = n(n+1)/2$.",
        "  Let $n \\ge 1$.    Then $\\sum_{i=1}^n i = n(n+1)/2$.\n\n",
        "Let $n \\ge 1$. % the base case is trivial\nThen $\\sum_{i=1}^n i = n(n+1)/2$.",
        "% a leading comment line\nLet $n \\ge 1$. Then $\\sum_{i=1}^n i = n(n+1)/2$.",
    ],
)
def test_whitespace_and_comment_edits_keep_the_hash(variant):
    assert tex_sha256(variant) == tex_sha256(BASE)


@pytest.mark.parametrize(
    "variant",
    [
        r"Let $n \ge 2$. Then $\sum_{i=1}^n i = n(n+1)/2$.",
        r"Let $n \ge 1$. Then $\sum_{i=0}^n i = n(n+1)/2$.",
        r"Let $n \ge 1$. Then $\sum_{i=1}^n i \le n(n+1)/2$.",
    ],
)
def test_real_edits_change_the_hash(variant):
    assert tex_sha256(variant) != tex_sha256(BASE)


def test_escaped_percent_is_content_not_a_comment():
    assert normalise_tex(r"holds with 95\% probability") == r"holds with 95\% probability"
    assert tex_sha256(r"95\% sure") != tex_sha256(r"95\% certain")


def test_percent_after_a_line_break_command_is_a_comment():
    assert normalise_tex("a \\\\% note\nb") == "a \\\\b"


def test_comment_swallows_the_line_end_like_tex():
    assert normalise_tex("foo%\n   bar") == "foobar"


def test_hash_is_hex_sha256():
    digest = tex_sha256("x")
    assert len(digest) == 64
    assert int(digest, 16) >= 0

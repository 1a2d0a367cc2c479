"""Fingerprints of TeX text that survive reformatting, not real edits (docs/prior-art.md §4.3)."""

from __future__ import annotations

import hashlib
import re

# A `%` starts a comment unless escaped by an odd number of backslashes (`\%` is a percent sign,
# `\\%` is a line break followed by a comment). Like TeX, the comment also swallows the line end
# and the next line's leading blanks, so `foo%\nbar` normalises to `foobar`.
_COMMENT = re.compile(r"(?<!\\)((?:\\\\)*)%[^\n]*(?:\n[ \t]*)?")
_WHITESPACE = re.compile(r"\s+")


def normalise_tex(text: str) -> str:
    """Drop `%` comments and collapse every whitespace run to one space, so that reflowing a
    paragraph or adding a comment does not count as a revision."""
    without_comments = _COMMENT.sub(r"\1", text)
    return _WHITESPACE.sub(" ", without_comments).strip()


def tex_sha256(text: str) -> str:
    """The hex sha256 of the normalised text."""
    return hashlib.sha256(normalise_tex(text).encode("utf-8")).hexdigest()

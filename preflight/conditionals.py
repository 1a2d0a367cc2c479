"""`\\newif` toggles in document order: a branch the paper switched off is not content.

`\\iffalse`/`\\if0` are blanked by the pre-pass; this handles `\\newif\\ifdraft` with
`\\drafttrue`/`\\draftfalse`, which the walker evaluates as it reaches them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from paperlint.preflight import prepass

# `\\loop ... \\ifdim ... \\repeat`: plain TeX's \\repeat closes the loop's conditional
_TOKEN = re.compile(r"\\(if[A-Za-z@]*|else|fi|or|repeat)(?![A-Za-z@])")


@dataclass
class Toggles:
    """Known `\\newif` flags and the conditionals open at the walker's position."""

    flags: dict[str, bool] = field(default_factory=dict)
    stack: list[str] = field(default_factory=list)

    def declare(self, name: str) -> None:
        self.flags[name] = False

    def assign(self, word: str) -> bool:
        """`\\drafttrue`/`\\draftfalse`: set the flag; False if `word` is no such setter."""
        for suffix, value in (("true", True), ("false", False)):
            flag = word.removesuffix(suffix)
            if word.endswith(suffix) and flag in self.flags:
                self.flags[flag] = value
                return True
        return False


def is_conditional(word: str) -> bool:
    return word.startswith("if") and word not in prepass.NOT_CONDITIONALS


def skip_branch(text: str, pos: int, *, stop_at_else: bool) -> tuple[int, bool]:
    """From inside a false branch, the offset after its matching `\\else` (when wanted) or
    `\\fi`; the flag says whether an `\\else` was where it stopped."""
    depth = 0
    for match in _TOKEN.finditer(text, pos):
        word = match.group(1)
        if word.startswith("if") and prepass.is_named_conditional(text, match.start()):
            continue  # `\\newif\\iffoo`, `\\let\\iffoo\\iftrue`: no branch opens
        if word.startswith("if"):
            depth += is_conditional(word)
        elif word == "repeat":
            depth = max(depth - 1, 0)
        elif word == "fi":
            if depth == 0:
                return match.end(), False
            depth -= 1
        elif word == "else" and depth == 0 and stop_at_else:
            return match.end(), True
    return len(text), False

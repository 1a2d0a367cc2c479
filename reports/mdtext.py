"""Markdown escaping. Paper text and model-written text are untrusted: a statement must not
close its code block, break a table, or smuggle raw HTML into a Markdown viewer."""

from __future__ import annotations

import re

# Only what can start markup mid-line; `#`, `+`, `>` matter at a line start, which never
# holds paper text here.
_SPECIAL = re.compile(r"([\\`*_\[\]|~])")


def inline(text: str) -> str:
    """Plain text for a Markdown paragraph or table cell, on one line."""
    text = " ".join(text.split())
    text = text.replace("&", "&amp;").replace("<", "&lt;")
    return _SPECIAL.sub(r"\\\1", text)


def code(text: str, *, cell: bool = False) -> str:
    """Inline code that survives backticks in the text; in a table `cell`, pipes too."""
    text = " ".join(text.split())
    if cell:  # GFM splits table rows on `|` even inside code spans
        text = text.replace("|", "\\|")
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def block(text: str, lang: str = "") -> str:
    """A fenced code block whose fence is longer than any backtick run inside it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{lang}\n{text.rstrip()}\n{fence}"


def table(header: list[str], rows: list[list[str]], align: str = "") -> list[str]:
    """A GFM table; cells must already be escaped. `align` is one char per column: l or r."""
    marks = ["---:" if a == "r" else "---" for a in align.ljust(len(header), "l")]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(marks) + " |"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines

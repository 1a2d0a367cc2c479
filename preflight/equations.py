"""Equation numbering (latex.md §9): per-line numbers in `align`-like environments, `\\tag`,
`\\notag`/`\\nonumber`, starred forms."""

from __future__ import annotations

import re

from paperlint.preflight import texscan
from paperlint.preflight.counters import Counters

SINGLE = {"equation", "multline", "displaymath", "dmath", "math"}
MULTI = {"align", "gather", "flalign", "alignat", "xalignat", "xxalignat", "eqnarray", "IEEEeqnarray"}
EQUATION_ENVS = SINGLE | MULTI | {e + "*" for e in SINGLE | MULTI}
_LABEL = re.compile(r"\\label\s*\{([^}]*)\}")
_TAG = re.compile(r"\\tag(\*?)\s*\{")
_NOTAG = re.compile(r"\\(?:notag|nonumber)(?![A-Za-z@])")
_ROW_TOKEN = re.compile(r"\\\\|\\begin\s*\{|\\end\s*\{|\\[A-Za-z@]+|\\.|[{}]")


def split_rows(body: str) -> list[str]:
    """Split at `\\\\` outside braces and nested environments."""
    rows: list[str] = []
    depth = 0
    start = 0
    for match in _ROW_TOKEN.finditer(body):
        token = match.group(0)
        if token in ("{",) or token.startswith("\\begin"):
            depth += 1
        elif token == "}" or token.startswith("\\end"):
            depth -= 1
        elif token == "\\\\" and depth <= 0:
            rows.append(body[start : match.start()])
            start = match.end()
    rows.append(body[start:])
    if len(rows) > 1 and not rows[-1].strip():
        rows.pop()  # a trailing `\\` opens no numbered line
    return rows


def number_rows(env: str, body: str, counters: Counters) -> list[tuple[str | None, list[str]]]:
    """Each row's printed number (None when unnumbered) and its labels; steps `equation`."""
    base = env.rstrip("*")
    starred = env.endswith("*") or base in ("displaymath", "math")
    rows = split_rows(body) if base in MULTI else [body]
    out: list[tuple[str | None, list[str]]] = []
    for row in rows:
        labels = [m.group(1).strip() for m in _LABEL.finditer(row)]
        tag = _TAG.search(row)
        if tag is not None:
            group = texscan.read_group(row, tag.end() - 1)
            out.append((texscan.strip_braces(group[0]) if group else "", labels))
        elif starred or _NOTAG.search(row):
            out.append((None, labels))
        else:
            counters.step("equation")
            out.append((counters.render("equation"), labels))
    return out

"""Probe labels: let LaTeX number the results the author did not label.

Under `--latex` only labels connect a result to LaTeX's `.aux`. For an unlabelled result the
scratch copy (never the user's file) gets `\\label{paperlint-probe-N}` right after the result's
`\\begin{env}` and its optional argument, so the compiled `.aux` records the number LaTeX
printed. The optional argument is found by LaTeX's rule (docs/latex-notes.md §10): spaces and one
newline may precede `[`, a blank line stops the search, and the argument ends at the first `]`
outside braces. Where the `\\begin` is not on the line the inventory gives, nothing is added.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from paperlint.preflight.texscan import find_closing_brace, read_optional

PROBE_PREFIX = "paperlint-probe-"


@dataclass(frozen=True)
class LabelProbe:
    key: str
    file: str  # relative to the project folder
    line: int  # 1-based line of the `\begin`
    env: str


def probe_key(index: int) -> str:
    return f"{PROBE_PREFIX}{index}"


def is_probe(key: str) -> bool:
    return key.startswith(PROBE_PREFIX)


def insert_probes(text: str, probes: Iterable[LabelProbe]) -> tuple[str, list[LabelProbe]]:
    """Add each probe's `\\label` to `text`; return the new text and the probes placed."""
    starts = _line_starts(text)
    edits: list[tuple[int, LabelProbe]] = []
    for probe in probes:
        if not 1 <= probe.line <= len(starts):
            continue
        at = label_position(text, starts[probe.line - 1], probe.env)
        if at is not None:
            edits.append((at, probe))
    out = text
    for at, probe in sorted(edits, key=lambda e: e[0], reverse=True):
        out = f"{out[:at]}\\label{{{probe.key}}}{out[at:]}"
    return out, [probe for _, probe in edits]


def label_position(text: str, line_start: int, env: str) -> int | None:
    """Where a label goes for the `\\begin{env}` on the line starting at `line_start`."""
    line_end = text.find("\n", line_start)
    line_end = len(text) if line_end < 0 else line_end
    for name, after_args in ((env, 0), ("restatable", 2), ("restatable*", 2)):
        begin = f"\\begin{{{name}}}"
        at = text.find(begin, line_start, line_end)
        if at < 0 or (name != env and f"{{{env}}}" not in text[at : line_end + 1]):
            continue
        pos: int | None = _after_optional(text, at + len(begin))
        for _ in range(after_args):  # restatable[note]{env}{name}
            pos = _after_group(text, pos) if pos is not None else None
        return pos
    return None


def add_probes_to_tree(scratch: Path, probes: list[LabelProbe]) -> list[LabelProbe]:
    """Edit the scratch copy in place; return the probes that were placed."""
    by_file: dict[str, list[LabelProbe]] = defaultdict(list)
    for probe in probes:
        by_file[probe.file].append(probe)
    placed: list[LabelProbe] = []
    root = scratch.resolve()
    for file, group in by_file.items():
        path = (scratch / file).resolve()
        if not path.is_relative_to(root) or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
        new, done = insert_probes(text, group)
        if done:
            path.write_text(new, encoding="utf-8", errors="surrogateescape")
            placed.extend(done)
    return placed


def _line_starts(text: str) -> list[int]:
    starts = [0]
    starts.extend(i + 1 for i, ch in enumerate(text) if ch == "\n")
    return starts


def _after_optional(text: str, pos: int) -> int:
    """The index after `[…]` if LaTeX would read one at `pos`, else `pos` itself."""
    i, newlines = pos, 0
    while i < len(text):
        ch = text[i]
        if ch in " \t":
            i += 1
        elif ch == "%":
            end = text.find("\n", i)
            i = len(text) if end < 0 else end + 1
        elif ch == "\n" and newlines == 0:
            newlines, i = 1, i + 1
        else:
            break
    if i >= len(text) or text[i] != "[":
        return pos
    read = read_optional(text, i, newline=False)
    return pos if read is None else read[1]


def _after_group(text: str, pos: int) -> int | None:
    i = pos
    while i < len(text) and text[i] in " \t\n":
        i += 1
    if i >= len(text) or text[i] != "{":
        return None
    end = find_closing_brace(text, i)
    return None if end >= len(text) else end + 1

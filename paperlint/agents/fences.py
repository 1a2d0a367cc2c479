"""The fenced-block reply format: Lean in ```lean blocks, the rest in one small JSON object.

JSON strings are a poor carrier for Lean and LaTeX: every backslash and quote must be escaped,
and a model that forgets turns `\\frac` into a form feed. So a reply may put each piece of Lean
in its own fenced block and name it from the JSON by reference:

    ```lean
    theorem main (x : ℝ) : 0 < x ^ 2 + 1 := by positivity
    ```
    ```json
    {"lean": "@lean:1", "notes": "positivity closes it"}
    ```

`"@lean:N"` is the N-th ```lean block (from 1). Only the Lean-valued fields of a task accept a
reference (`LEAN_FIELDS`, an allowlist: a `notes` that happens to read `@lean:1` stays text).
A task with one main Lean field (`DEFAULT_FIELD`) may also leave it out when the reply has
exactly one ```lean block.

Fences are read line by line, CommonMark-style, so the hostile cases behave: a fence opens only
at the start of a line (up to three spaces), with three or more backticks or tildes and an info
string without backticks (so "```lean x```" inside a JSON string or a sentence is text); it
closes on a line of the same character, at least as long, and nothing else; a block that never
closes is reported (the reply was probably cut off), never taken whole; CRLF and CR are read as
LF, so a Windows-style reply gives the same Lean text. Lean that itself holds a line of three
backticks (a doc comment with an example) needs a longer fence, as in Markdown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

LEAN_LANGS = frozenset({"lean", "lean4"})
REFERENCE = re.compile(r"@lean:(\d{1,3})")
# Paths of Lean-valued fields; "*" is any list item.
LEAN_FIELDS: dict[str, tuple[tuple[str, ...], ...]] = {
    "prover": (("lean",),),
    "issue_checker": (("counterexample",),),
    "drafter": (
        ("statement",),
        ("definitions", "*"),
        ("obligations", "*", "lean"),
        ("conditions", "*", "lean_type"),
    ),
}
DEFAULT_FIELD: dict[str, str] = {"prover": "lean", "issue_checker": "counterexample"}

_OPEN = re.compile(r"^ {0,3}(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n]*?)[ \t]*$")


class FenceError(ValueError):
    """The reply's fenced blocks cannot be read as the format says; the text says why."""


@dataclass(frozen=True)
class FencedBlock:
    lang: str  # first word of the info string, lower-cased ("" for none)
    body: str
    line: int  # 1-based line of the opening fence
    closed: bool = True


@dataclass(frozen=True)
class Reply:
    blocks: tuple[FencedBlock, ...]
    outside: str  # the reply with every block's lines blanked (positions kept)

    @property
    def lean(self) -> tuple[FencedBlock, ...]:
        return tuple(b for b in self.blocks if b.lang in LEAN_LANGS)

    def other_bodies(self) -> list[str]:
        """Bodies of closed non-Lean blocks (```json, bare ```), where the JSON may be."""
        return [b.body for b in self.blocks if b.closed and b.lang not in LEAN_LANGS]


def normalize_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def split_reply(text: str) -> Reply:
    """Every fenced block of `text`, in order; an unclosed one last, with `closed=False`."""
    lines = normalize_newlines(text).split("\n")
    blocks: list[FencedBlock] = []
    outside = list(lines)
    index = 0
    while index < len(lines):
        opening = _OPEN.match(lines[index])
        fence = opening["fence"] if opening else ""
        info = opening["info"] if opening else ""
        if not opening or (fence[0] == "`" and "`" in info):
            index += 1
            continue
        close = re.compile(rf"^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
        end = next((j for j in range(index + 1, len(lines)) if close.match(lines[j])), None)
        stop = len(lines) if end is None else end
        words = info.split()
        lang = words[0].lower() if words else ""
        body = "\n".join(lines[index + 1 : stop])
        blocks.append(FencedBlock(lang=lang, body=body, line=index + 1, closed=end is not None))
        for j in range(index, min(stop + 1, len(lines))):
            outside[j] = ""
        index = stop + 1
    return Reply(blocks=tuple(blocks), outside="\n".join(outside))


def fill_lean(task: str, data: dict[str, Any], reply: Reply) -> dict[str, Any]:
    """`data` with every `"@lean:N"` in a Lean-valued field replaced by block N's text.

    Raises FenceError naming the field when a reference points nowhere, when a referenced
    block never closes, or when the reply has Lean blocks the JSON cannot be matched to."""
    blocks = reply.lean
    fields = LEAN_FIELDS.get(task, ())
    used = 0
    for path in fields:
        used += _replace(data, path, (), blocks)
    default = DEFAULT_FIELD.get(task)
    if default is not None and data.get(default) is None and not used and blocks:
        if len(blocks) > 1:
            raise FenceError(
                f"the answer has {len(blocks)} ```lean blocks and `{default}` names none of "
                f'them; set `{default}` to "@lean:N" for the block that is the answer'
            )
        data[default] = _body(blocks[0], default)
    return data


def _replace(
    node: Any, path: tuple[str, ...], where: tuple[str, ...], blocks: tuple[FencedBlock, ...]
) -> int:
    if not path:
        return 0
    head, rest = path[0], path[1:]
    if head == "*":
        if not isinstance(node, list):
            return 0
        count = 0
        for i, item in enumerate(node):
            if rest:
                count += _replace(item, rest, (*where, str(i)), blocks)
            elif _is_reference(item):
                node[i] = _resolve(item, ".".join((*where, str(i))), blocks)
                count += 1
        return count
    if not isinstance(node, dict) or head not in node:
        return 0
    if rest:
        return _replace(node[head], rest, (*where, head), blocks)
    if _is_reference(node[head]):
        node[head] = _resolve(node[head], ".".join((*where, head)), blocks)
        return 1
    return 0


def _is_reference(value: Any) -> bool:
    return isinstance(value, str) and REFERENCE.fullmatch(value.strip()) is not None


def _resolve(value: str, field: str, blocks: tuple[FencedBlock, ...]) -> str:
    match = REFERENCE.fullmatch(value.strip())
    assert match is not None  # checked by _is_reference
    number = int(match.group(1))
    if not 1 <= number <= len(blocks):
        raise FenceError(
            f"`{field}` refers to ```lean block {number}, but the answer has {len(blocks)}"
        )
    return _body(blocks[number - 1], field)


def _body(block: FencedBlock, field: str) -> str:
    if not block.closed:
        raise FenceError(
            f"the ```lean block for `{field}` (opened on line {block.line}) is never closed; "
            "the answer was probably cut off: send it again, complete"
        )
    return block.body.strip("\n")

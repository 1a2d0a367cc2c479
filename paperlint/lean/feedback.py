"""Feedback for the prover: the candidate with Lean's answers inlined as comments.

lean-probe's format (docs/lean-notes.md §11.1): above each offending source line, indented like it,
one comment per message (`-- ✗ error: …`, `-- ⚠ warning: …`, `-- ℹ info: …`) and per goal
(`-- goal: …`). Whitespace is collapsed; messages are cut at 240 characters, goals at 300, at
most 4 entries per line. A model reads this far better than raw JSON, and it is deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence

from paperlint.lean.messages import unsolved_goals
from paperlint.lean.verifier import LeanCheck, LeanMessage

MESSAGE_CHARS = 240
GOAL_CHARS = 300
ENTRIES_PER_LINE = 4
_ICONS = {"error": "✗ error", "warning": "⚠ warning", "info": "ℹ info", "trace": "ℹ trace"}


def collapse(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def render(
    candidate: str,
    messages: Sequence[LeanMessage],
    sorry_goals: Sequence[tuple[int, str]] = (),
) -> str:
    """`candidate` with comment lines inserted above the lines the messages point at.

    Lines are 1-based lines of `candidate`; a message outside it (line 0, or past the end)
    is shown above the first line. `sorry_goals` pairs a line with the goal of a `sorry`.
    """
    lines = candidate.split("\n")
    notes: dict[int, list[str]] = {}

    def add(line: int, entry: str) -> None:
        index = line if 1 <= line <= len(lines) else 1
        bucket = notes.setdefault(index, [])
        if entry in bucket:
            return
        if len(bucket) < ENTRIES_PER_LINE:
            bucket.append(entry)
        elif len(bucket) == ENTRIES_PER_LINE:
            bucket.append("… (more messages on this line)")

    for msg in messages:
        icon = _ICONS.get(msg.severity, msg.severity)
        goals = unsolved_goals(msg.text)
        head = msg.text.split("\n", 1)[0] if goals else msg.text
        add(msg.line, f"{icon}: {collapse(head, MESSAGE_CHARS)}")
        if goals:
            add(msg.line, f"goal: {collapse(goals, GOAL_CHARS)}")
    quoted = " ".join(" ".join(m.text.split()) for m in messages)
    for line, goal in sorry_goals:
        flat = collapse(goal, GOAL_CHARS)
        # A goal already quoted in a message on that line adds nothing.
        if " ".join(goal.split()) not in quoted:
            add(line, f"goal: {flat}")

    out: list[str] = []
    for number, text in enumerate(lines, start=1):
        indent = text[: len(text) - len(text.lstrip())]
        out.extend(f"{indent}-- {entry}" for entry in notes.get(number, []))
        out.append(text)
    return "\n".join(out)


def render_feedback(candidate: str, check: LeanCheck) -> str:
    """Feedback for a checked candidate; the verifier's own rendering when it made one.

    Goals kept only as text (no line) are shown above the first line.
    """
    if check.feedback:
        return check.feedback
    if check.hint and not check.messages:
        return f"-- ✗ {check.code or 'failure'}: {collapse(check.hint, MESSAGE_CHARS)}\n{candidate}"
    return render(candidate, check.messages, [(0, goal) for goal in check.goals])

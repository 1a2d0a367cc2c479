"""Prompt drift as notes: answers produced with a prompt template that has changed since.

Every `model_call` event (and transcript entry) carries `template_sha256`, the hash of the
task's template, its includes and its output schema (`prompts.template_sha256`). A report or
`validate` run compares each with the template this paperlint renders today (the caller hands
in today's hashes: records and reports render no prompt). A difference is
a note, never a verdict change: a verdict rests on its Lean evidence and the gate's record,
not on the prompt's wording, but a reader should know the answers came from other prompts
(an older paperlint) and that a fresh run would ask differently.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def template_drift_notes(
    events: Iterable[Mapping[str, Any]], today: Mapping[str, str]
) -> list[str]:
    """One note per task whose recorded template hash differs from today's (`today`: task ->
    `agents.prompts.template_sha256`, `agents.prompts.template_hashes()`), and one for replayed
    answers that were recorded with another template than the run rendered."""
    changed: dict[str, list[str]] = {}
    replayed = 0
    for event in events:
        if event.get("type") != "model_call" or event.get("ok") is not True:
            continue
        replayed += event.get("template_drift") is True
        task, recorded = event.get("task"), event.get("template_sha256")
        if not isinstance(task, str) or task not in today or not isinstance(recorded, str):
            continue
        if recorded != today[task]:
            changed.setdefault(task, []).append(recorded)
    notes = []
    for task, hashes in sorted(changed.items()):
        old = ", ".join(sorted({h[:12] for h in hashes}))
        notes.append(
            f"prompt template drift: {len(hashes)} {task} answer(s) were produced with a "
            f"template ({old}) other than today's ({today[task][:12]}); verdicts are "
            "unchanged (they rest on the Lean evidence), but a fresh run would ask differently"
        )
    if replayed:
        notes.append(
            f"prompt template drift: {replayed} replayed answer(s) were recorded with another "
            "template than the one the run rendered"
        )
    return notes

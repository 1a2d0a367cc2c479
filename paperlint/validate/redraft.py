"""Re-run the type-check of the gated draft: the statement a verdict is about must be the one
Lean elaborated before the gate saw it.

`validate` can only compare the copies of the gated statement with each other; a forger who
rewrites every copy consistently passes it. Lean's own answer cannot be rewritten that way: a
replay recording is keyed by the exact context and text checked, and a live Lean elaborates the
text afresh. The context is rebuilt as the engine built it when drafting (`execute._draft`):
the header plus the accepted declarations of the result's dependencies.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any, Literal

from paperlint.lean.verifier import LeanContext, Outcome
from paperlint.records.results import ResultRecord
from paperlint.validate.context import reviewed_draft
from paperlint.validate.model import Snapshot

Status = Literal["confirmed", "refuted", "not-run"]


def workspace_deps(snap: Snapshot) -> dict[str, list[str]] | None:
    """Each result's transitive dependencies in queue order, from blueprint.json (None: it is
    missing or unreadable)."""
    from paperlint.blueprint.model import Blueprint
    from paperlint.records.layout import transitive_deps

    data = snap.json("blueprint.json")
    if data is None:
        return None
    try:
        blueprint = Blueprint.model_validate(data)
    except ValueError:
        return None
    ids = {e.id for e in blueprint.entries}
    order = [i for i in blueprint.order if i in ids] or [r.id for r in snap.records]
    return transitive_deps(blueprint, order)


def draft_context(snap: Snapshot, record: ResultRecord, header: str) -> LeanContext | None:
    from paperlint.lean.compose import context_for
    from paperlint.records.accepted import accepted_declarations

    deps = workspace_deps(snap)
    if deps is None:
        return None
    records = {r.id: r for r in snap.records}
    decls: list[str] = []
    for dep_id in deps.get(record.id, []):
        if dep_id in records:
            decls.extend(accepted_declarations(records[dep_id]))
    return context_for(header, decls)


def draft_text(snap: Snapshot, record: ResultRecord) -> tuple[str, str] | None:
    """(path, text) of the draft the cited gate reviewed, as Lean type-checked it."""
    if record.evidence.gate is None:
        return None
    found = reviewed_draft(snap, record.evidence.gate)
    if found is None:
        return None
    path = found.removesuffix(".json") + ".lean"
    text = snap.text(path)
    return (path, text) if text is not None else None


def recheck_draft(verifier: Any, mode: str, context: LeanContext, text: str) -> tuple[Status, str]:
    """(status, detail): `confirmed`, `refuted` or `not-run`, as for the final checks."""
    if mode == "replay":
        answer = verifier.check(context, text, timeout_s=120.0)
        if answer.outcome is Outcome.UNAVAILABLE:
            return "refuted", "no recorded type-check of this exact gated draft and context"
        errors = answer.errors()
    else:
        answer = _live_build(verifier, context, text)
        if answer.outcome in (Outcome.UNAVAILABLE, Outcome.TIMEOUT):
            return "not-run", f"{answer.outcome.value}: {answer.hint or ''}"
        errors = tuple(answer.errors)
    if answer.outcome is Outcome.TIMEOUT:
        return "not-run", "timeout"
    if errors:
        return "refuted", f"the gated draft does not type-check: {str(errors[0])[:200]}"
    return "confirmed", "the gated statement type-checks (with `sorry` proofs)"


def _live_build(verifier: Any, context: LeanContext, text: str) -> Any:
    # A live final checker builds files; `sorry` warnings are expected in a draft.
    with tempfile.TemporaryDirectory(prefix="paperlint-redraft-") as folder:
        path = Path(folder) / "Draft.lean"
        path.write_text(context.text() + "\n" + text.strip() + "\n", encoding="utf-8")
        return verifier.final_check(path, [], timeout_s=900.0)

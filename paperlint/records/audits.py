"""The audit records a check writes under `audits/<id>/`: one schema each, stated here only.

The steps write them, the engine state reads back the agent outputs they hold
(`records.state`), `validate` re-reads them; all three name a record by these constants. A record
that holds one model (an agent's answer, a final check) is that model's fields after its schema
(`enveloped`)."""

from __future__ import annotations

from typing import Any, Final

from pydantic import BaseModel

GATE: Final = "paperlint.gate/1"
ISSUE_RULING: Final = "paperlint.issue-ruling/1"
REVIEW: Final = "paperlint.review/1"
FINAL_AUDIT: Final = "paperlint.final-audit/1"
VACUITY: Final = "paperlint.vacuity/1"
RESTATEMENT: Final = "paperlint.restatement/1"


def enveloped(schema: str, model: BaseModel, **beside: Any) -> dict[str, Any]:
    """An audit record holding `model`: its schema, what is `beside` it, then its fields."""
    return {"schema": schema, **beside, **model.model_dump(mode="json")}

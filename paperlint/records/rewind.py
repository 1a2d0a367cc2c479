"""Rewinding a result's record for a reset: a revision of the paper (`paperlint.revise`) or the
convergence review's re-gate (`paperlint.engine.converge`).

Pure. Each reset rewinds a result's working state to the point where `engine.plan` picks it up
again, and leaves everything before that point as it was. Each step's slot declares what a
reset keeps of it (`Slot.after_reset`; `records/slots.py` for the plan, draft, gate, prove,
reconnect, audit, issue checker and review steps):
a re-draft keeps nothing, a re-gate the plan and the draft (and, in the gate's slot, a proved
result's proof aside, issue #14), a re-prove the plan, the draft and the gated statement, its
obligations reopened as their gated skeletons; a revision's `re-draft` or `re-gate` keeps a
verified proof in the restate step's slot (issue #15, `engine/steps/restate.py`); the
reconnections, the audit, the ruling and the review, the prover's and the gate's suspicion
and the gate's counterexample are kept by no reset. What follows is the rule for the rest: the
stage is set where `engine.plan` picks the result up again:

- `re-draft`: stage pending;
- `re-gate`: stage drafted, so the next action is the gate;
- `re-prove`: stage gated, so the next action is the first obligation; the gated statement
  stands, and with it the evidence of the gate.
"""

from __future__ import annotations

import paperlint.records.slots  # noqa: F401  (the record slots, whose resets this applies)
from paperlint.records.results import Evidence, ResultRecord, Stage
from paperlint.records.work import ResetAction, ResultWork, slot_types

_STAGE = {"re-draft": Stage.PENDING, "re-gate": Stage.DRAFTED, "re-prove": Stage.GATED}


def rewind(record: ResultRecord, action: ResetAction, *, revision: bool = False) -> ResultRecord:
    """The record with its work state rewound for `action` (see the module docstring);
    `revision`: a revision of the paper, else the convergence review's re-gate."""
    evidence = Evidence(lean_name=record.evidence.lean_name)
    new_work, stage = ResultWork(), _STAGE[action]
    if action == "re-prove":  # the gated statement stands, and with it the gate's evidence
        evidence = evidence.model_copy(
            update={
                "statement_fingerprint": record.evidence.statement_fingerprint,
                "gate": record.evidence.gate,
            }
        )
    for model in slot_types().values():
        kept = model.after_reset(record, action, revision)
        if kept is not None:
            new_work = new_work.with_slot(kept)
    return record.model_copy(
        update={
            "stage": stage,
            "verdict": None,
            "conditions": [],
            "issue": None,
            "unfinished": None,
            "evidence": evidence,
            "notes": [],
        }
    ).with_work(new_work)

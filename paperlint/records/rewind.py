"""Rewinding a result's record for a reset: a revision of the paper (`paperlint.revise`) or the
convergence review's re-gate (`paperlint.engine.converge`).

Pure. Each reset rewinds a result's working state to the point where `engine.plan` picks it up
again, and leaves everything before that point as it was. What follows is the rule for the
shared slot (`ResultWork`'s own fields); each step's own slot declares what a reset keeps of
it (`Slot.after_reset`): a re-gate keeps a proved result's proof aside in the gate's slot
(issue #14, `engine/steps/gate.py`); a revision's `re-draft` or `re-gate` keeps a verified
proof in the restate step's slot (issue #15, `engine/steps/restate.py`); the reconnect step's
slot keeps no reconnection through any reset, the audit's, the issue checker's and the
review's nothing (`records/slots.py`).

- `re-draft`: nothing kept (plan, draft, gates, obligations all cleared); stage pending.
- `re-gate`: the plan and the draft kept; gates, fingerprint, obligations and everything after
  cleared; stage drafted, so the next action is the gate.
- `re-prove`: plan, draft, gates and fingerprint kept; the obligations reopened as their gated
  skeletons (no proof, no attempts); suspicion and counterexample cleared;
  stage gated, so the next action is the first obligation.
"""

from __future__ import annotations

from paperlint.records.results import Evidence, ResultRecord, Stage
from paperlint.records.work import Obligation, ResetAction, ResultWork, slot_types


def rewind(record: ResultRecord, action: ResetAction, *, revision: bool = False) -> ResultRecord:
    """The record with its work state rewound for `action` (see the module docstring);
    `revision`: a revision of the paper, else the convergence review's re-gate."""
    work = record.work
    evidence = Evidence(lean_name=record.evidence.lean_name)
    if action == "re-draft":
        new_work, stage = ResultWork(), Stage.PENDING
    elif action == "re-gate":
        new_work = ResultWork(plan=work.plan, draft=work.draft, draft_rounds=work.draft_rounds)
        stage = Stage.DRAFTED
    else:
        new_work = ResultWork(
            plan=work.plan,
            draft=work.draft,
            draft_rounds=work.draft_rounds,
            gates=work.gates,
            fingerprint=work.fingerprint,
            obligations=[Obligation(id=o.id, skeleton=o.skeleton) for o in work.obligations],
        )
        stage = Stage.GATED
        # the gated statement stands, and with it the evidence of the gate
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

"""Rewinding a result's record for a reset: a revision of the paper (`paperlint.revise`) or the
convergence review's re-gate (`paperlint.engine.converge`).

Pure. Each reset rewinds a result's working state to the point where `engine.plan` picks it up
again, and leaves everything before that point as it was:

- `re-draft`: nothing kept (plan, draft, gates, obligations all cleared); stage pending.
  (`set_aside`, for `re-draft` and `re-gate`: a verified proof is kept as `work.previous`; if
  the new gated statement is equivalent to the old one in Lean, the engine carries the proof
  over: issue #15, `engine/steps/restate.py`.)
- `re-gate`: the plan and the draft kept; gates, fingerprint, obligations and everything after
  cleared; stage drafted, so the next action is the gate. `regated` (the convergence
  review's re-gate) also keeps a proved result's fingerprint and proofs aside (`KeptProof`):
  if the gate passes the same statement again, the gate step takes them back instead of
  proving it again, and the audit rebuilds them (issue #14). A revision's re-gate uses it too;
  its call estimate (`revise.changes`) is then an upper bound.
- `re-prove`: plan, draft, gates and fingerprint kept; the obligations reopened as their gated
  skeletons (no proof, no attempts); suspicion, ruling, review, counterexample, final check and
  audit cleared; stage gated, so the next action is the first obligation.
"""

from __future__ import annotations

from typing import Literal

from paperlint.records.results import Evidence, ResultRecord, Stage, Verdict
from paperlint.records.work import KeptProof, Obligation, PreviousProof, ResultWork

ResetAction = Literal["re-draft", "re-gate", "re-prove"]


def rewind(record: ResultRecord, action: ResetAction) -> ResultRecord:
    """The record with its work state rewound for `action` (see the module docstring)."""
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


def regated(record: ResultRecord, action: ResetAction) -> ResultRecord:
    """`rewind`, with a re-gated result's proof kept aside for the gate (`kept_proof`)."""
    new = rewind(record, action)
    if action != "re-gate":
        return new
    return new.with_work(new.work.model_copy(update={"kept": kept_proof(record.work)}))


def kept_proof(work: ResultWork) -> KeptProof | None:
    """The gated fingerprint and proofs of a fully proved result (or what an earlier re-gate
    kept, if it was not used yet), for a re-gate to take back."""
    proved = bool(work.obligations) and all(o.status == "proved" for o in work.obligations)
    if work.fingerprint is not None and proved:
        return KeptProof(fingerprint=work.fingerprint, obligations=list(work.obligations))
    return work.kept


def set_aside(rewound: ResultRecord, before: ResultRecord, action: ResetAction) -> ResultRecord:
    """The rewound record, keeping the old verified proof when the reset may change the
    statement (`re-draft`, `re-gate`): `previous_proof`."""
    if action == "re-prove":
        return rewound
    previous = previous_proof(before)
    if previous is None:
        return rewound
    return rewound.with_work(rewound.work.model_copy(update={"previous": previous}))


def previous_proof(record: ResultRecord) -> PreviousProof | None:
    """A verified result's gated statement and proof, kept through a reset that may change the
    statement: an equivalent restatement keeps its proof (the engine's `restate` step checks
    the equivalence in Lean). Only a proof without step lemmas is kept (a step's statement is
    not compared). A result already carrying one keeps it until it is verified again."""
    work, draft = record.work, record.work.draft
    verified = record.verdict in (Verdict.VERIFIED_CONDITIONAL, Verdict.VERIFIED_UNCONDITIONAL)
    main = [o.proof for o in work.obligations if o.id == "main" and o.proof]
    if not verified or draft is None or len(work.obligations) != 1 or not main:
        return work.previous
    return PreviousProof(
        statement=draft.statement,
        lean_name=draft.lean_name,
        proof=main[0],
        definitions=list(draft.definitions),
    )

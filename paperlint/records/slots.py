"""The slots of steps whose state the validator reads (issue #27).

A step's own working state is a `Slot` declared beside the step (`paperlint.engine.steps`),
but the validator and the report never import the engine: a slot one of them reads is
declared here, below both, and registered with `record_slot`, so every process that reads a
state file decodes it (`paperlint.records.state`) and the rewind asks it what a reset keeps.
Its step's module uses it from here and owns it all the same: only that step writes it.
"""

from __future__ import annotations

from typing import Final

from pydantic import Field

from paperlint.records.outputs import AuditOutput, IssueRuling, OmitUnused, ReviewOutput
from paperlint.records.work import (
    CounterexampleCheck,
    FinalAudit,
    ResultWork,
    Slot,
    StoredOutput,
    Suspicion,
    _Record,
    record_slot,
)


class Discharge(_Record):
    """A condition (kind iii) discharged by the predecessor's theorem (issue #14)."""

    condition: str  # the hypothesis' name in the conditional theorem
    result: str  # the predecessor's result id
    by: str  # the predecessor's Lean theorem
    fingerprint: str | None = None  # the predecessor's statement fingerprint when it was tried


RECONNECT_SCHEMA: Final = "paperlint.reconnect/1"  # audits/<id>/reconnect-<n>.json


class Reconnection(_Record, OmitUnused):
    """One reconnection tried: a declaration applying the conditional theorem to the
    predecessors' theorems, checked by the verifier and then by the trusted checker (before
    #25: by a cold build of the composed file)."""

    OMIT_AT_DEFAULT = ("checker",)  # issue #25
    discharges: list[Discharge]
    name: str  # the composed declaration's Lean name
    declaration: str | None = None  # its text, once composed (dependents build on it)
    accepted: bool  # warm check, trusted checker (or final build), axioms, hygiene all passed
    file: str | None = None  # the composed module, workspace-relative (read, not built)
    final_check: str | None = None  # audits/<id>/reconnect-<n>-check.json (before #25)
    axioms: list[str] | None = None
    record: str  # audits/<id>/reconnect-<n>.json
    detail: str = ""  # why it was not accepted
    checker: str | None = None  # audits/<id>/reconnect-<n>-checker.json (issue #25)


@record_slot
class Reconnections(Slot):
    """The reconnect step's slot: every reconnection tried for the result, in order (issue
    #14). Written by `engine/steps/reconnect.py` only; read by the validator and by
    `accepted_declarations`. A reset keeps none: the statement or its proof is done again,
    and a reconnection is tried anew once the result is verified again."""

    KIND = "reconnect"
    tried: list[Reconnection] = Field(default_factory=list)


def reconnections(work: ResultWork) -> list[Reconnection]:
    """Every reconnection tried for this work, in order."""
    return work.slot(Reconnections).tried


def reconnected(work: ResultWork) -> Reconnection | None:
    """The last accepted reconnection: the discharges the verdict rests on."""
    return next((r for r in reversed(reconnections(work)) if r.accepted), None)


@record_slot
class Audited(Slot):
    """The audit step's slot: the final check (the modules' build, the axioms, the trusted
    checker) and the auditor's answer, recorded together by `engine/steps/audit.py` only;
    read by the validator (`verified_rules`), by the reconnect step (it composes an audited
    proof) and by the audit's own readiness. A reset keeps none of it (the proof it checked
    is done again). The answer is a reference to `final-audit.json`, which the audit writes
    once, before it records both."""

    KIND = "audit"
    REFS = {
        "audit": StoredOutput(
            AuditOutput,
            "audit",
            r"final-audit\.json",
            lambda w, i: ["final-audit.json"] if audited(w).final is not None else [],
        )
    }
    final: FinalAudit | None = None
    audit: AuditOutput | None = None


def audited(work: ResultWork) -> Audited:
    """The audit step's slot: its final check and answer (None before the audit)."""
    return work.slot(Audited)


@record_slot
class Ruled(Slot):
    """The issue checker's slot: its ruling (`issue.json`) on the suspicion that stood when it
    ruled (`on`; None: the draft's ambiguity). Written by `engine/steps/check_issue.py` only;
    read by the review, by the readiness of the proof work and by the validator
    (`issue_rules`). A ruling answers the suspicion it was given and no other: once the prover
    raises a fresh one it is stale (`ruling(work)` None) and the checker rules again, so no
    other step clears it. A reset keeps none of it."""

    KIND = "check_issue"
    # issue.json while the ruling stands: the checker writes it again only for a fresh
    # suspicion, and then the stale ruling is kept in a file of its own.
    REFS = {
        "ruling": StoredOutput(
            IssueRuling,
            "ruling",
            r"issue\.json",
            lambda w, i: ["issue.json"] if ruling(w) is not None else [],
        )
    }
    on: Suspicion | None = None
    ruling: IssueRuling | None = None
    # an ERROR's counterexample as the checker judged it (the gate's, when the checker gave
    # no proof of its own and the gate's compiled: `ResultWork.counterexample`)
    counterexample: CounterexampleCheck | None = None


def ruling(work: ResultWork) -> IssueRuling | None:
    """The issue checker's ruling on the suspicion standing now (None: none, or stale)."""
    ruled = work.slot(Ruled)
    return ruled.ruling if ruled.on == work.suspicion else None


def counterexample(work: ResultWork) -> CounterexampleCheck | None:
    """The counterexample the standing ruling rests on, as the checker judged it."""
    ruled = work.slot(Ruled)
    return ruled.counterexample if ruled.on == work.suspicion else None


@record_slot
class Reviewed(Slot):
    """The review step's slot: the auditor's second ruling (`issue-review.json`) on the issue
    checker's ruling, given for the suspicion that stood then (`on`). Written by
    `engine/steps/review_issue.py` only; read by its readiness and by the validator
    (`issue_rules`). Like the ruling it reviewed, it is stale once the prover raises a fresh
    suspicion (`review(work)` None), so no other step clears it. A reset keeps none of it."""

    KIND = "review_issue"
    # issue-review.json while the review stands: the step writes it again only for a fresh
    # suspicion, and then the stale review is kept in a file of its own.
    REFS = {
        "review": StoredOutput(
            ReviewOutput,
            "review",
            r"issue-review\.json",
            lambda w, i: ["issue-review.json"] if review(w) is not None else [],
        )
    }
    on: Suspicion | None = None
    review: ReviewOutput | None = None


def review(work: ResultWork) -> ReviewOutput | None:
    """The auditor's review of the ruling on the suspicion standing now (None: none, stale)."""
    reviewed = work.slot(Reviewed)
    return reviewed.review if reviewed.on == work.suspicion else None

"""The slots of steps whose state the validator reads (issue #27).

A step's own working state is a `Slot` declared beside the step (`paperlint.engine.steps`),
but the validator and the report never import the engine: a slot one of them reads is
declared here, below both, and registered with `record_slot`, so every process that reads a
state file decodes it (`paperlint.records.state`) and the rewind asks it what a reset keeps.
Its step's module uses it from here and owns it all the same; where another step writes it
too (the gate sends a draft back or adopts the second draft, opens the obligations), the
slot's docstring says so and why. Each has one typed accessor for readers (`draft_of(work)`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from pydantic import Field

from paperlint.domain import SECOND_DRAFT_FILE
from paperlint.records.outputs import (
    ArchitectOutput,
    AuditOutput,
    DraftOutput,
    GateOutput,
    IssueRuling,
    OmitUnused,
    ReviewOutput,
)
from paperlint.records.work import (
    CounterexampleCheck,
    FinalAudit,
    Obligation,
    ResetAction,
    ResultWork,
    Slot,
    StoredOutput,
    Suspicion,
    _Record,
    record_slot,
)

if TYPE_CHECKING:
    from paperlint.records.results import ResultRecord


# --- plan: the architect's route ------------------------------------------------------------


@record_slot
class Planned(Slot):
    """The plan step's slot: the architect's route (plan.json, written while there is no
    plan). Read by the drafter's prompt and by the steps' readiness. Kept through a re-gate
    and a re-prove, cleared by a re-draft."""

    KIND = "plan"
    REFS = {
        "plan": StoredOutput(ArchitectOutput, "plan", r"plan\.json", lambda w, i: ["plan.json"])
    }

    plan: ArchitectOutput | None = None

    @classmethod
    def after_reset(
        cls, before: ResultRecord, action: ResetAction, revision: bool
    ) -> Planned | None:
        return None if action == "re-draft" else cls(plan=plan_of(before.work))


def plan_of(work: ResultWork) -> ArchitectOutput | None:
    """The architect's route, once planned."""
    return work.slot(Planned).plan


# --- draft: the standing Lean statement -----------------------------------------------------


def _draft_files(work: ResultWork, index: int) -> list[str]:
    # draft-N.json is written for attempt `rounds + 1`; the standing draft is attempt
    # `rounds` (a reset that lowers the count drops the draft too). The gate may adopt the
    # second draft, which second-draft-1.json holds while its step will not run again.
    return [f"draft-{drafting(work).rounds}.json", SECOND_DRAFT_FILE]


_DRAFT_NAMES: Final = rf"draft-[1-9][0-9]*\.json|{re.escape(SECOND_DRAFT_FILE)}"


@record_slot
class Drafted(Slot):
    """The draft step's slot: the standing draft, the rounds spent and why the last draft
    was sent back (`feedback`: Lean's answer; or the gate's, or the convergence review's,
    which send the draft step's draft back through `sent_back`: the reason is the draft
    step's next input, kept with the draft it is about). The gate may also adopt the second
    draft as the standing one (issue #15). A re-gate and a re-prove keep the draft and its
    rounds (not the feedback), a re-draft nothing."""

    KIND = "draft"
    REFS = {"draft": StoredOutput(DraftOutput, "draft", _DRAFT_NAMES, _draft_files)}

    draft: DraftOutput | None = None
    rounds: int = 0
    feedback: str | None = None  # why the last draft was sent back (Lean or gate)

    @classmethod
    def after_reset(
        cls, before: ResultRecord, action: ResetAction, revision: bool
    ) -> Drafted | None:
        own = drafting(before.work)
        return None if action == "re-draft" else cls(draft=own.draft, rounds=own.rounds)


def drafting(work: ResultWork) -> Drafted:
    """The draft step's slot: the standing draft, its rounds and feedback."""
    return work.slot(Drafted)


def draft_of(work: ResultWork) -> DraftOutput | None:
    """The standing draft (gated once the gate slot has a fingerprint)."""
    return drafting(work).draft


def sent_back(work: ResultWork, why: str) -> ResultWork:
    """`work` with its draft sent back to the draft step, and why (the gate blocked it, or
    the convergence review flagged it): the draft step drafts again with `why`."""
    return work.with_slot(drafting(work).model_copy(update={"feedback": why}))


# --- gate: the statement's review -----------------------------------------------------------


class KeptProof(_Record):
    """What a re-gate keeps of a proved result: its gated fingerprint and its proofs, used
    again if the gate passes the same statement (issue #14)."""

    fingerprint: str
    obligations: list[Obligation]


@record_slot
class Gated(Slot):
    """The gate step's slot: its answers, round by round (gate-N.json, for round
    `len(gates) + 1`: a reset that restarts the rounds drops them), the gated statement's
    fingerprint, a re-gate's kept proof (`kept`) and whether the obligations are a kept
    proof, not proved in this gating (`proof_kept`; the audit proves such a proof again when
    it no longer builds), and the suspicion its faithfulness decision raised (an ERROR or a
    DOMAIN_CLARIFICATION, issue #15) with an ERROR's counterexample, its probe's refutation
    (`gate_counterexample`). No reset keeps the suspicion or the counterexample."""

    KIND = "gate"
    REFS = {
        "gates": StoredOutput(
            GateOutput, "gate", r"gate-[1-9][0-9]*\.json", lambda w, i: [f"gate-{i + 1}.json"]
        )
    }

    gates: list[GateOutput] = Field(default_factory=list)
    fingerprint: str | None = None
    kept: KeptProof | None = None
    proof_kept: bool = False
    suspicion: Suspicion | None = None  # raised_by "gate"
    counterexample: CounterexampleCheck | None = None  # an ERROR's, compiled by the gate's probe

    @classmethod
    def after_reset(cls, before: ResultRecord, action: ResetAction, revision: bool) -> Gated | None:
        """A re-prove keeps the gated statement (answers and fingerprint). A re-gate (the
        convergence review's or a revision's) keeps a proved result's fingerprint and proofs
        aside: if the gate passes the same statement again, it takes them back instead of
        proving it again, and the audit rebuilds them. A revision's call estimate
        (`revise.changes`) is then an upper bound. A re-draft keeps nothing."""
        own = gating(before.work)
        if action == "re-prove":
            return cls(gates=own.gates, fingerprint=own.fingerprint)
        kept = kept_proof(before.work) if action == "re-gate" else None
        return None if kept is None else cls(kept=kept)


def gating(work: ResultWork) -> Gated:
    """The gate step's slot."""
    return work.slot(Gated)


def fingerprint_of(work: ResultWork) -> str | None:
    """The gated statement's fingerprint: None until the gate passed a statement."""
    return gating(work).fingerprint


def kept_proof(work: ResultWork) -> KeptProof | None:
    """The gated fingerprint and proofs of a fully proved result (or what an earlier re-gate
    kept, if it was not used yet), for a re-gate to take back."""
    obligations, fp = obligations_of(work), fingerprint_of(work)
    if fp is not None and obligations and all(o.status == "proved" for o in obligations):
        return KeptProof(fingerprint=fp, obligations=list(obligations))
    return gating(work).kept


# --- prove: the obligations -----------------------------------------------------------------


@record_slot
class Proving(Slot):
    """The prove step's slot: the gated statement's obligations, each with its proof or its
    failures. The gate opens them (the gated draft's skeletons, or a re-gate's kept proof),
    the prover and the restate step prove them, the audit reopens a kept proof that no
    longer builds. A re-prove reopens them as their gated skeletons (no proof, no
    attempts); a re-draft and a re-gate keep none. Also the suspicion the prover raised when
    an obligation's attempts were spent (`suspicion`), which no reset keeps."""

    KIND = "prove"

    obligations: list[Obligation] = Field(default_factory=list)
    suspicion: Suspicion | None = None  # raised_by "prover"

    @classmethod
    def after_reset(
        cls, before: ResultRecord, action: ResetAction, revision: bool
    ) -> Proving | None:
        if action != "re-prove":
            return None
        return cls(obligations=reopened(obligations_of(before.work)))


def proving(work: ResultWork) -> Proving:
    """The prove step's slot: the obligations and the prover's suspicion."""
    return work.slot(Proving)


def obligations_of(work: ResultWork) -> list[Obligation]:
    """The gated statement's obligations, in order (`main` last)."""
    return proving(work).obligations


def reopened(obligations: list[Obligation]) -> list[Obligation]:
    """The obligations as the gate opened them: their skeletons, no proof, no attempt."""
    return [Obligation(id=o.id, skeleton=o.skeleton) for o in obligations]


# --- the suspicion under review -------------------------------------------------------------


def suspicion_of(work: ResultWork) -> Suspicion | None:
    """The suspicion raised and under review: the prover's if it raised one (a later one,
    about a step of the proof), else the gate's. The ruling and the review answer it (`on`)."""
    return proving(work).suspicion or gating(work).suspicion


def suspected(record: ResultRecord) -> Suspicion | None:
    """The issue under review: the one the prover or the gate raised (`suspicion_of`), else
    the draft's ambiguity once the issue checker ruled it an issue (the checker raises
    nothing itself)."""
    work = record.work
    raised, ruled = suspicion_of(work), ruling(work)
    if raised is not None or ruled is None or not ruled.is_issue:
        return raised
    draft = draft_of(work)
    ambiguity = draft.ambiguity if draft else ""
    return Suspicion(obligation=None, reason=f"ambiguity: {ambiguity}")


def standing(work: ResultWork, on: Suspicion | None) -> bool:
    """Whether what answered the suspicion `on` still stands: `on` is the suspicion under review
    (a fresh one makes every earlier answer stale; the one rule for the ruling, its
    counterexample, the review and the gate's refutation)."""
    return on == suspicion_of(work)


def gate_counterexample(work: ResultWork) -> CounterexampleCheck | None:
    """The gate's probe's refutation while the gate's suspicion is the one under review (a
    suspicion the prover raised since is about a step, which that refutation does not
    answer)."""
    own = gating(work)
    return own.counterexample if standing(work, own.suspicion) else None


# --- reconnect ------------------------------------------------------------------------------


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
    # no proof of its own and the gate's compiled: `gate_counterexample`)
    counterexample: CounterexampleCheck | None = None


def ruling(work: ResultWork) -> IssueRuling | None:
    """The issue checker's ruling on the suspicion standing now (None: none, or stale)."""
    ruled = work.slot(Ruled)
    return ruled.ruling if standing(work, ruled.on) else None


def counterexample(work: ResultWork) -> CounterexampleCheck | None:
    """The counterexample the standing ruling rests on, as the checker judged it."""
    ruled = work.slot(Ruled)
    return ruled.counterexample if standing(work, ruled.on) else None


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
    return reviewed.review if standing(work, reviewed.on) else None

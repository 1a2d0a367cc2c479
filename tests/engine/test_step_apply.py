"""Case tables for every step's `apply`: record before, outcome, record after.

Each case states the whole record after the step (built from the record before with the
fields that change), so a field that changes unexpectedly fails the case. The negative paths
are the ones that stop a false verdict: a statement that never type-checks, a statement the
gate never approves, an issue without a class or a verbatim quote, an ERROR without a compiled
counterexample, a second review that does not confirm, and every way a final audit fails.
"""

from dataclasses import dataclass
from typing import Any

import pytest

from paperlint.agents.outputs import (
    ArchitectOutput,
    AuditOutput,
    DraftCondition,
    DraftOutput,
    FidelityFields,
    FieldReview,
    GateOutput,
    IssueRuling,
    ProofStep,
    ProverOutput,
    ReviewOutput,
    StepObligation,
)
from paperlint.domain import ConditionKind, IssueClass, IssueSide
from paperlint.engine.actions import Action, ActionKind, Failure, ProofCheck
from paperlint.engine.apply import apply, apply_one
from paperlint.engine.plan import Policy
from paperlint.engine.steps import REGISTRY, Failed
from paperlint.engine.steps.audit import AuditOutcome
from paperlint.engine.steps.base import StepOutcome, evolve
from paperlint.engine.steps.check_issue import CheckIssueOutcome
from paperlint.engine.steps.draft import DraftOutcome
from paperlint.engine.steps.gate import GateOutcome, Vacuity
from paperlint.engine.steps.plan import PlanOutcome
from paperlint.engine.steps.prove import ProveOutcome
from paperlint.engine.steps.reconnect import ReconnectOutcome
from paperlint.engine.steps.review_issue import ReviewOutcome
from paperlint.records import slots
from paperlint.records.results import (
    Condition,
    ConditionSource,
    Evidence,
    Issue,
    IssueEvidence,
    IssueLocation,
    ResultRecord,
    Results,
    Stage,
    Unfinished,
    UnfinishedReason,
    Verdict,
)
from paperlint.records.slots import Discharge, KeptProof, Reconnection, reconnections
from paperlint.records.work import (
    CounterexampleCheck,
    FailedProof,
    FinalAudit,
    Obligation,
    Suspicion,
)
from tests.workstate import with_work, work_of

POLICY = Policy(prover_ladder=("cheap",), prover_attempts=3, draft_rounds=2)
FIDELITY = FidelityFields(
    object_class="x",
    quantifier_order="x",
    parameter_domains="x",
    codomain="x",
    hypotheses="x",
    conclusion="x",
)
STATEMENT = "theorem t (x : ℕ) : x = x := by\n  sorry"
STEP_S1 = "theorem t_s1 : True := by\n  sorry"
CONDITION = DraftCondition(
    name="h_cite", lean_type="True", kind=ConditionKind.CITED, key="k", locator="Theorem 2"
)
DRAFT = DraftOutput(
    lean_name="t",
    statement=STATEMENT,
    fidelity=FIDELITY,
    obligations=[StepObligation(id="s1", lean=STEP_S1)],
)
PLAN = ArchitectOutput(steps=[ProofStep(id="s1", text="the step")])
PASS = GateOutput(  # a PASS reviews every fidelity field, each ok (issue #12)
    decision="PASS",
    fields=[FieldReview(field=name, ok=True) for name in FidelityFields.model_fields],
)
BLOCK = GateOutput(decision="BLOCK", fields=[], reasons=["wrong quantifier order"])
SOFT = Unfinished(reason=UnfinishedReason.BUDGET_EXHAUSTED, detail="the run's budget was spent")
OBLIGATIONS = [
    Obligation(id="s1", skeleton=STEP_S1),
    Obligation(id="main", skeleton=STATEMENT),
]
SUSPICION = Suspicion(obligation="s1", reason="the bound does not follow")


def action(kind: ActionKind, **kw: Any) -> Action:
    return Action(kind=kind, result="lem:a", **kw)


def record(kind: str = "lemma", **fields: Any) -> ResultRecord:
    work = fields.pop("work", {})
    return ResultRecord(id="lem:a", number="1", kind=kind, **fields).with_work(work_of(**work))


@dataclass(frozen=True)
class Case:
    name: str
    before: ResultRecord
    outcome: StepOutcome
    after: ResultRecord
    policy: Policy = POLICY


def _run(case: Case) -> None:
    got = apply_one(case.before, case.outcome, case.policy)
    assert got == case.after


def _ids(cases: list[Case]) -> list[str]:
    return [c.name for c in cases]


# --- failures of the edges (any step) ---------------------------------------------------------

_DRAFTING = record(stage=Stage.PLANNED, work={"plan": PLAN})
FAILURE_CASES = [
    Case(
        f"{failure.value} leaves the result unfinished",
        _DRAFTING,
        Failed(action=action(ActionKind.DRAFT), failure=failure, detail="why"),
        evolve(
            _DRAFTING,
            verdict=Verdict.UNFINISHED,
            unfinished=Unfinished(reason=UnfinishedReason(failure.value), detail="why"),
            stage=Stage.DONE if failure is Failure.INVALID_MODEL_OUTPUT else Stage.PLANNED,
        ),
    )
    for failure in Failure
]


@pytest.mark.parametrize("case", FAILURE_CASES, ids=_ids(FAILURE_CASES))
def test_failure(case):
    _run(case)


# --- plan -------------------------------------------------------------------------------------

_STOPPED = record(verdict=Verdict.UNFINISHED, unfinished=SOFT)
PLAN_CASES = [
    Case(
        "a plan moves the result to planned",
        record(),
        PlanOutcome(action=action(ActionKind.PLAN), plan=PLAN),
        evolve(with_work(record(), plan=PLAN), stage=Stage.PLANNED),
    ),
    Case(
        "a plan after a soft stop clears the unfinished verdict",
        _STOPPED,
        PlanOutcome(action=action(ActionKind.PLAN), plan=PLAN),
        evolve(record(), stage=Stage.PLANNED, work=work_of(plan=PLAN)),
    ),
]


@pytest.mark.parametrize("case", PLAN_CASES, ids=_ids(PLAN_CASES))
def test_plan(case):
    _run(case)


# --- draft ------------------------------------------------------------------------------------


def _drafted(rounds: int, ok: bool, feedback: str = "") -> DraftOutcome:
    return DraftOutcome(
        action=action(ActionKind.DRAFT, attempt=rounds), draft=DRAFT, ok=ok, feedback=feedback
    )


DRAFT_CASES = [
    Case(
        "a draft that type-checks is drafted",
        _DRAFTING,
        _drafted(1, ok=True),
        evolve(with_work(_DRAFTING, draft=DRAFT, draft_rounds=1), stage=Stage.DRAFTED),
    ),
    Case(
        "a draft that fails keeps Lean's feedback for the next round",
        _DRAFTING,
        _drafted(1, ok=False, feedback="unknown identifier"),
        with_work(_DRAFTING, draft=DRAFT, draft_rounds=1, draft_feedback="unknown identifier"),
    ),
    Case(
        "translation blocked: the last round still does not type-check",
        with_work(_DRAFTING, draft=DRAFT, draft_rounds=1, draft_feedback="earlier"),
        _drafted(2, ok=False, feedback="type mismatch"),
        evolve(
            with_work(_DRAFTING, draft=DRAFT, draft_rounds=2, draft_feedback="type mismatch"),
            stage=Stage.DONE,
            verdict=Verdict.UNFINISHED,
            unfinished=Unfinished(
                reason=UnfinishedReason.TRANSLATION_BLOCKED,
                detail="the drafted statement did not type-check after 2 rounds: type mismatch",
            ),
        ),
    ),
    Case(
        "a good second round clears the earlier feedback",
        with_work(_DRAFTING, draft=DRAFT, draft_rounds=1, draft_feedback="earlier"),
        _drafted(2, ok=True),
        evolve(with_work(_DRAFTING, draft=DRAFT, draft_rounds=2), stage=Stage.DRAFTED),
    ),
]


@pytest.mark.parametrize("case", DRAFT_CASES, ids=_ids(DRAFT_CASES))
def test_draft(case):
    _run(case)


# --- gate -------------------------------------------------------------------------------------

_DRAFTED = record(stage=Stage.DRAFTED, work={"plan": PLAN, "draft": DRAFT, "draft_rounds": 1})
_DEFINITION_DRAFT = DraftOutput(
    lean_name="IsNice", statement="def IsNice (x : ℕ) : Prop := 0 < x", fidelity=FIDELITY
)
_DEFINITION = record(
    kind="definition",
    verdict_bearing=False,
    stage=Stage.DRAFTED,
    work={"draft": _DEFINITION_DRAFT, "draft_rounds": 1},
)
GATE_RECORD = "audits/lem_a/gate-1.json"
DRAFT_FILE = "audits/lem_a/draft-1.lean"


def _gated(review: GateOutput, fp: str | None, vacuity: Vacuity | None = None) -> GateOutcome:
    return GateOutcome(
        action=action(ActionKind.GATE),
        review=review,
        vacuity=vacuity,
        record=GATE_RECORD,
        fingerprint=fp,
        lean_file=DRAFT_FILE,
    )


_VACUOUS_BLOCK = GateOutput(decision="BLOCK", fields=PASS.fields, reasons=["hypotheses contradict"])
_EMPTY_BLOCK = GateOutput(decision="BLOCK", fields=[])
GATE_CASES = [
    Case(
        "a PASS gates the statement and opens its obligations, main last",
        _DRAFTED,
        _gated(PASS, "sha256:f"),
        evolve(
            with_work(_DRAFTED, gates=[PASS], fingerprint="sha256:f", obligations=OBLIGATIONS),
            stage=Stage.GATED,
            evidence=Evidence(gate=GATE_RECORD, statement_fingerprint="sha256:f"),
        ),
    ),
    Case(
        "a gated definition is done: an input, its Lean file is the evidence",
        _DEFINITION,
        _gated(PASS, "sha256:d"),
        evolve(
            with_work(_DEFINITION, gates=[PASS], fingerprint="sha256:d"),
            stage=Stage.DONE,
            evidence=Evidence(
                gate=GATE_RECORD,
                statement_fingerprint="sha256:d",
                lean_file=DRAFT_FILE,
                lean_name="IsNice",
            ),
        ),
    ),
    Case(
        "a vacuous statement: the PASS becomes a BLOCK with Lean's reason",
        _DRAFTED,
        _gated(PASS, None, Vacuity(reason="hypotheses contradict")),
        evolve(
            with_work(
                _DRAFTED,
                gates=[_VACUOUS_BLOCK],
                draft_feedback="gate blocked: hypotheses contradict",
            ),
            stage=Stage.GATE_BLOCKED,
            evidence=Evidence(gate=GATE_RECORD),
        ),
    ),
    Case(
        "a BLOCK sends the statement back to the drafter",
        _DRAFTED,
        _gated(BLOCK, None),
        evolve(
            with_work(
                _DRAFTED, gates=[BLOCK], draft_feedback="gate blocked: wrong quantifier order"
            ),
            stage=Stage.GATE_BLOCKED,
            evidence=Evidence(gate=GATE_RECORD),
        ),
    ),
    Case(
        "a PASS without a fingerprint is not a gate: sent back",
        _DRAFTED,
        _gated(PASS, None),
        evolve(
            with_work(
                _DRAFTED,
                gates=[PASS],
                draft_feedback="gate blocked: blocked without a stated reason",
            ),
            stage=Stage.GATE_BLOCKED,
            evidence=Evidence(gate=GATE_RECORD),
        ),
    ),
    Case(
        "statement not approved: blocked in the last round",
        with_work(_DRAFTED, draft_rounds=2),
        _gated(_EMPTY_BLOCK, None),
        evolve(
            with_work(
                _DRAFTED,
                draft_rounds=2,
                gates=[_EMPTY_BLOCK],
                draft_feedback="gate blocked: blocked without a stated reason",
            ),
            stage=Stage.DONE,
            evidence=Evidence(gate=GATE_RECORD),
            verdict=Verdict.UNFINISHED,
            unfinished=Unfinished(
                reason=UnfinishedReason.STATEMENT_NOT_APPROVED,
                detail="blocked without a stated reason",
            ),
        ),
    ),
]


@pytest.mark.parametrize("case", GATE_CASES, ids=_ids(GATE_CASES))
def test_gate(case):
    _run(case)


# --- prove ------------------------------------------------------------------------------------

_PROVING = record(
    stage=Stage.GATED,
    work={"plan": PLAN, "draft": DRAFT, "fingerprint": "sha256:f", "obligations": OBLIGATIONS},
)
_PROOF = "theorem t_s1 : True := trivial"


def _proved(
    accepted: bool, attempt: int = 1, gives_up: bool = False, problem: str | None = None
) -> ProveOutcome:
    return ProveOutcome(
        action=action(ActionKind.PROVE, obligation="s1", attempt=attempt, model="cheap"),
        prover=ProverOutput(lean=_PROOF, gives_up=gives_up, suspected_problem=problem),
        check=ProofCheck(
            file=f"audits/lem_a/attempts/s1-{attempt}.lean",
            accepted=accepted,
            feedback="" if accepted else "error: unsolved goals",
        ),
        accepted_text=_PROOF if accepted else None,
    )


def _failure(attempt: int) -> FailedProof:
    return FailedProof(
        attempt=attempt,
        model="cheap",
        file=f"audits/lem_a/attempts/s1-{attempt}.lean",
        feedback="error: unsolved goals",
    )


def _obligations(s1: Obligation) -> list[Obligation]:
    return [s1, OBLIGATIONS[1]]


_RULED = with_work(
    _PROVING,
    ruling=IssueRuling(is_issue=False),
    review=ReviewOutput(confirms=False, explanation="x"),
    checked_counterexample=CounterexampleCheck(file="f", accepted=False, axioms_ok=False),
)
_STALE = _PROVING.with_work(  # ruling, counterexample, review: kept, stale
    _PROVING.work.with_slot(_RULED.work.slot(slots.Ruled)).with_slot(
        _RULED.work.slot(slots.Reviewed)
    )
)
_TWO_FAILED = _obligations(evolve(OBLIGATIONS[0], attempts=2, failures=[_failure(1), _failure(2)]))
PROVE_CASES = [
    Case(
        "an accepted proof proves the obligation",
        _PROVING,
        _proved(True),
        evolve(
            with_work(
                _PROVING,
                obligations=_obligations(
                    evolve(OBLIGATIONS[0], attempts=1, status="proved", proof=_PROOF)
                ),
            ),
            stage=Stage.PROVING,
        ),
    ),
    Case(
        "a rejected proof keeps the obligation open and records the failure",
        _PROVING,
        _proved(False),
        evolve(
            with_work(
                _PROVING,
                obligations=_obligations(
                    evolve(OBLIGATIONS[0], attempts=1, failures=[_failure(1)])
                ),
            ),
            stage=Stage.PROVING,
        ),
    ),
    Case(
        "the last attempt fails: the obligation fails and raises a suspicion",
        with_work(_RULED, obligations=_TWO_FAILED),
        _proved(False, attempt=3),
        evolve(
            with_work(
                _STALE,  # the ruling answered no suspicion: stale once one is raised
                obligations=_obligations(
                    evolve(
                        OBLIGATIONS[0],
                        attempts=3,
                        status="failed",
                        failures=[_failure(1), _failure(2), _failure(3)],
                    )
                ),
                suspicion=Suspicion(
                    obligation="s1", reason="obligation s1 not proved after 3 attempts"
                ),
            ),
            stage=Stage.PROVING,
        ),
    ),
    Case(
        "the prover gives up: its suspected problem is the suspicion",
        _PROVING,
        _proved(False, gives_up=True, problem="the step needs n > 0"),
        evolve(
            with_work(
                _PROVING,
                obligations=_obligations(
                    evolve(OBLIGATIONS[0], attempts=1, status="failed", failures=[_failure(1)])
                ),
                suspicion=Suspicion(obligation="s1", reason="the step needs n > 0"),
            ),
            stage=Stage.PROVING,
        ),
    ),
    Case(
        "only the last five failures are kept",
        with_work(
            _PROVING,
            obligations=_obligations(
                evolve(OBLIGATIONS[0], attempts=5, failures=[_failure(i) for i in range(1, 6)])
            ),
        ),
        _proved(False, attempt=6),
        evolve(
            with_work(
                _PROVING,
                obligations=_obligations(
                    evolve(
                        OBLIGATIONS[0],
                        attempts=6,
                        status="failed",
                        failures=[_failure(i) for i in range(2, 7)],
                    )
                ),
                suspicion=Suspicion(
                    obligation="s1", reason="obligation s1 not proved after 6 attempts"
                ),
            ),
            stage=Stage.PROVING,
        ),
    ),
]


@pytest.mark.parametrize("case", PROVE_CASES, ids=_ids(PROVE_CASES))
def test_prove(case):
    _run(case)


def test_a_fresh_suspicion_leaves_the_ruling_its_counterexample_and_the_review_stale():
    """Only their own steps write them (issue #27): the prover raising a suspicion clears
    nothing; the accessors answer None because each answered the suspicion before it."""
    before = with_work(_RULED, obligations=_TWO_FAILED, checked_counterexample=GOOD_CEX)
    assert slots.ruling(before.work) is not None and slots.review(before.work) is not None
    assert slots.counterexample(before.work) == GOOD_CEX
    new = apply_one(before, _proved(False, attempt=3), POLICY)
    assert slots.suspicion_of(new.work) is not None
    assert new.work.slot(slots.Ruled) == before.work.slot(slots.Ruled)  # kept as it was
    assert new.work.slot(slots.Reviewed) == before.work.slot(slots.Reviewed)
    assert slots.ruling(new.work) is None and slots.review(new.work) is None
    assert slots.counterexample(new.work) is None


def test_a_prover_suspicion_after_the_gates_leaves_the_gates_slot_and_shadows_it():
    """The gate's suspicion and its probe's refutation stay in the gate's slot (one owner
    each); once the prover raises its own, that one is under review and the checker no longer
    adopts the gate's counterexample (`gate_counterexample`), as when the prover dropped it."""
    gates = Suspicion(obligation=None, reason="refuted", raised_by="gate")
    cex = CounterexampleCheck(file="lean/T_counterexample.lean", accepted=True, axioms_ok=True)
    before = with_work(_PROVING, obligations=_TWO_FAILED, suspicion=gates, counterexample=cex)
    assert slots.suspicion_of(before.work) == gates == slots.gating(before.work).suspicion
    assert slots.gate_counterexample(before.work) == cex
    new = apply_one(before, _proved(False, attempt=3), POLICY)
    raised = new.work.slot(slots.Proving).suspicion
    assert raised is not None and raised.raised_by == "prover"
    assert slots.suspicion_of(new.work) == raised
    assert slots.gating(new.work) == slots.gating(before.work)  # the prover wrote nothing there
    assert slots.gate_counterexample(new.work) is None


# --- check_issue ------------------------------------------------------------------------------

_SUSPECTED = with_work(_PROVING, suspicion=SUSPICION)
_AMBIGUOUS_DRAFT = evolve(DRAFT, ambiguity="x may be real or natural")
_AMBIGUOUS = with_work(_PROVING, draft=_AMBIGUOUS_DRAFT)
QUOTE = "hence the bound holds"
HASHES = {"audits/lem_a/issue.json": "aa"}
GOOD_CEX = CounterexampleCheck(file="lean/T_counterexample.lean", accepted=True, axioms_ok=True)
BAD_AXIOMS = CounterexampleCheck(
    file="lean/T_counterexample.lean", accepted=True, axioms_ok=False, detail="sorryAx"
)
NOT_BUILT = CounterexampleCheck(
    file="lean/T_counterexample.lean", accepted=False, axioms_ok=False, detail="type mismatch"
)


def _ruling(issue_class: IssueClass | None, *, is_issue: bool = True) -> IssueRuling:
    return IssueRuling(
        is_issue=is_issue,
        issue_class=issue_class,
        side=IssueSide.PAPER,
        quote=QUOTE,
        explanation="the step divides by zero",
    )


def _checked(
    ruling: IssueRuling,
    *,
    line: int | None = 12,
    cex: CounterexampleCheck | None = None,
) -> CheckIssueOutcome:
    return CheckIssueOutcome(
        action=action(ActionKind.CHECK_ISSUE),
        ruling=ruling,
        record="audits/lem_a/issue.json",
        quote_file="main.tex" if line else None,
        quote_line=line,
        counterexample=cex,
        hashes=HASHES,
    )


def _not_confirmed(before: ResultRecord, outcome: CheckIssueOutcome, detail: str) -> ResultRecord:
    new = with_work(
        before,
        ruling=outcome.ruling,
        checked_counterexample=outcome.counterexample,
    )
    return evolve(
        new,
        evidence=Evidence(hashes=HASHES),
        stage=Stage.DONE,
        verdict=Verdict.UNFINISHED,
        unfinished=Unfinished(reason=UnfinishedReason.ISSUE_NOT_CONFIRMED, detail=detail),
    )


_GAP = _checked(_ruling(IssueClass.PAPER_ARGUMENT_GAP))
_NO_CLASS = _checked(_ruling(None))
_NO_QUOTE = _checked(_ruling(IssueClass.EXPOSITION_GAP), line=None)
_ERROR_NO_CEX = _checked(_ruling(IssueClass.ERROR))
_ERROR_NOT_BUILT = _checked(_ruling(IssueClass.ERROR), cex=NOT_BUILT)
_ERROR_AXIOMS = _checked(_ruling(IssueClass.ERROR), cex=BAD_AXIOMS)
_ERROR_GOOD = _checked(_ruling(IssueClass.ERROR), cex=GOOD_CEX)
_NO_ISSUE = _checked(_ruling(None, is_issue=False), line=None)
CHECK_ISSUE_CASES = [
    Case(
        "a confirmed gap with a located quote goes on to the second review",
        _SUSPECTED,
        _GAP,
        evolve(with_work(_SUSPECTED, ruling=_GAP.ruling), evidence=Evidence(hashes=HASHES)),
    ),
    Case(
        "an ERROR with a compiled, standard-axiom counterexample goes on to review",
        _SUSPECTED,
        _ERROR_GOOD,
        evolve(
            with_work(_SUSPECTED, ruling=_ERROR_GOOD.ruling, checked_counterexample=GOOD_CEX),
            evidence=Evidence(hashes=HASHES),
        ),
    ),
    Case(
        "an issue about the drafter's ambiguity becomes the suspicion",
        _AMBIGUOUS,
        _GAP,
        evolve(
            with_work(_AMBIGUOUS, ruling=_GAP.ruling),  # `suspected` derives the suspicion
            evidence=Evidence(hashes=HASHES),
        ),
    ),
    Case(
        "an ambiguity that does not matter: proving goes on",
        _AMBIGUOUS,
        _NO_ISSUE,
        evolve(with_work(_AMBIGUOUS, ruling=_NO_ISSUE.ruling), evidence=Evidence(hashes=HASHES)),
    ),
    Case(
        "no problem in the step the prover could not prove: unfinished, budget",
        _SUSPECTED,
        _NO_ISSUE,
        evolve(
            with_work(_SUSPECTED, ruling=_NO_ISSUE.ruling),
            evidence=Evidence(hashes=HASHES),
            stage=Stage.DONE,
            verdict=Verdict.UNFINISHED,
            unfinished=Unfinished(
                reason=UnfinishedReason.BUDGET_EXHAUSTED,
                detail="the bound does not follow; the issue checker found no problem in the step",
            ),
        ),
    ),
    Case(
        "an issue without a class is not confirmed",
        _SUSPECTED,
        _NO_CLASS,
        _not_confirmed(_SUSPECTED, _NO_CLASS, "the issue checker gave no issue class"),
    ),
    Case(
        "an issue whose quote is not verbatim in the source is not confirmed",
        _SUSPECTED,
        _NO_QUOTE,
        _not_confirmed(
            _SUSPECTED,
            _NO_QUOTE,
            f"the quoted text does not occur verbatim in the source: {QUOTE!r}",
        ),
    ),
    Case(
        "an ERROR without a counterexample is not confirmed",
        _SUSPECTED,
        _ERROR_NO_CEX,
        _not_confirmed(
            _SUSPECTED,
            _ERROR_NO_CEX,
            "ERROR needs a compiled Lean counterexample: no counterexample given",
        ),
    ),
    Case(
        "an ERROR whose counterexample does not build is not confirmed",
        _SUSPECTED,
        _ERROR_NOT_BUILT,
        _not_confirmed(
            _SUSPECTED,
            _ERROR_NOT_BUILT,
            "ERROR needs a compiled Lean counterexample: type mismatch",
        ),
    ),
    Case(
        "an ERROR whose counterexample uses a non-standard axiom is not confirmed",
        _SUSPECTED,
        _ERROR_AXIOMS,
        _not_confirmed(
            _SUSPECTED, _ERROR_AXIOMS, "ERROR needs a compiled Lean counterexample: sorryAx"
        ),
    ),
]


@pytest.mark.parametrize("case", CHECK_ISSUE_CASES, ids=_ids(CHECK_ISSUE_CASES))
def test_check_issue(case):
    _run(case)


# --- review_issue -----------------------------------------------------------------------------

REVIEW_RECORD = "audits/lem_a/issue-review.json"
REVIEW_HASHES = {REVIEW_RECORD: "bb", DRAFT_FILE: "cc"}


def _reviewed(confirms: bool) -> ReviewOutcome:
    return ReviewOutcome(
        action=action(ActionKind.REVIEW_ISSUE),
        review=ReviewOutput(
            confirms=confirms, explanation="agreed" if confirms else "the step holds"
        ),
        record=REVIEW_RECORD,
        quote_file="main.tex",
        quote_line=12,
        lean_file=DRAFT_FILE,
        hashes=REVIEW_HASHES,
    )


def _issue_after(before: ResultRecord, outcome: ReviewOutcome, cex: str | None) -> ResultRecord:
    ruling = slots.ruling(before.work)
    assert ruling is not None and ruling.issue_class is not None
    return evolve(
        with_work(before, review=outcome.review),
        stage=Stage.DONE,
        verdict=Verdict.ISSUE,
        issue=Issue(
            class_=ruling.issue_class,
            side=IssueSide.PAPER,
            location=IssueLocation(file="main.tex", line=12, quote=QUOTE),
            summary="the step divides by zero",
            evidence=IssueEvidence(
                counterexample=cex,
                confirmed_by="auditor",
                raised_by="issue_checker",
                review=REVIEW_RECORD,
            ),
        ),
        evidence=Evidence(hashes={**HASHES, **REVIEW_HASHES}, lean_file=DRAFT_FILE, lean_name="t"),
    )


_GAP_RULED = evolve(with_work(_SUSPECTED, ruling=_GAP.ruling), evidence=Evidence(hashes=HASHES))
_ERROR_RULED = evolve(
    with_work(_SUSPECTED, ruling=_ERROR_GOOD.ruling, checked_counterexample=GOOD_CEX),
    evidence=Evidence(hashes=HASHES),
)
_GAP_WITH_CEX = with_work(_GAP_RULED, checked_counterexample=GOOD_CEX)
REVIEW_CASES = [
    Case(
        "a confirmed gap is an issue, located by its verbatim quote",
        _GAP_RULED,
        _reviewed(True),
        _issue_after(_GAP_RULED, _reviewed(True), cex=None),
    ),
    Case(
        "a confirmed ERROR names its counterexample",
        _ERROR_RULED,
        _reviewed(True),
        _issue_after(_ERROR_RULED, _reviewed(True), cex=GOOD_CEX.file),
    ),
    Case(
        "a counterexample is evidence only for an ERROR",
        _GAP_WITH_CEX,
        _reviewed(True),
        _issue_after(_GAP_WITH_CEX, _reviewed(True), cex=None),
    ),
    Case(
        "not confirmed by the second review: unfinished, no issue",
        _GAP_RULED,
        _reviewed(False),
        evolve(
            with_work(_GAP_RULED, review=_reviewed(False).review),
            stage=Stage.DONE,
            verdict=Verdict.UNFINISHED,
            unfinished=Unfinished(
                reason=UnfinishedReason.ISSUE_NOT_CONFIRMED,
                detail="the second review did not confirm: the step holds",
            ),
        ),
    ),
    Case(
        "a review with no ruling on record confirms nothing",
        _SUSPECTED,
        _reviewed(True),
        evolve(
            with_work(_SUSPECTED, review=_reviewed(True).review),
            stage=Stage.DONE,
            verdict=Verdict.UNFINISHED,
            unfinished=Unfinished(
                reason=UnfinishedReason.ISSUE_NOT_CONFIRMED, detail="no ruling to review"
            ),
        ),
    ),
]


@pytest.mark.parametrize("case", REVIEW_CASES, ids=_ids(REVIEW_CASES))
def test_review_issue(case):
    _run(case)


# --- audit ------------------------------------------------------------------------------------

_PROVED = [evolve(o, status="proved", proof=o.skeleton, attempts=1) for o in OBLIGATIONS]
_AUDITING = evolve(
    with_work(_PROVING, obligations=_PROVED),
    stage=Stage.PROVING,
    evidence=Evidence(gate=GATE_RECORD, statement_fingerprint="sha256:f", hashes={"g": "1"}),
)
_CONDITIONAL = with_work(_AUDITING, draft=evolve(DRAFT, conditions=[CONDITION]))
LEAN_FILE = "lean/Paper/T.lean"
AUDIT_HASHES = {LEAN_FILE: "dd"}
CLEAN = FinalAudit(
    file=LEAN_FILE,
    clean=True,
    axioms=["propext"],
    axioms_ok=True,
    fingerprint_ok=True,
    record="audits/lem_a/final-check.json",
    checker="audits/lem_a/checker.json",  # the trusted checker passed (issue 25)
)
PASSED = AuditOutput(decision="PASS", route_followed=True)


def _audited(final: FinalAudit = CLEAN, audit: AuditOutput = PASSED) -> AuditOutcome:
    return AuditOutcome(
        action=action(ActionKind.AUDIT),
        final=final,
        audit=audit,
        record="audits/lem_a/final-audit.json",
        lean_file=LEAN_FILE,
        hashes=AUDIT_HASHES,
    )


def _audit_evidence(final: FinalAudit) -> Evidence:
    return Evidence(
        lean_file=LEAN_FILE,
        lean_name="t",
        statement_fingerprint="sha256:f",
        gate=GATE_RECORD,
        final_check=final.record,
        axioms=final.axioms,
        audit="audits/lem_a/final-audit.json",
        checker=final.checker,
        hashes={"g": "1", **AUDIT_HASHES},
    )


def _audit_failed(outcome: AuditOutcome, detail: str) -> ResultRecord:
    return evolve(
        with_work(_AUDITING, final=outcome.final, audit=outcome.audit),
        evidence=_audit_evidence(outcome.final),
        stage=Stage.DONE,
        verdict=Verdict.UNFINISHED,
        unfinished=Unfinished(reason=UnfinishedReason.AUDIT_FAILED, detail=detail),
    )


_UNCLEAN = evolve(CLEAN, clean=False, detail="unknown constant")
_AXIOMS = evolve(CLEAN, axioms=["propext", "sorryAx"], axioms_ok=False)
_HYGIENE = evolve(CLEAN, hygiene_findings=["T.lean:3:0: native_decide: refused"])
_DRIFTED = evolve(CLEAN, fingerprint_ok=False)
_FAILED_AUDIT = AuditOutput(decision="FAIL", route_followed=True, findings=["skips step s1"])
_OFF_ROUTE = AuditOutput(decision="PASS", route_followed=False)
AUDIT_CASES = [
    Case(
        "every check passes: verified unconditionally",
        _AUDITING,
        _audited(),
        evolve(
            with_work(_AUDITING, final=CLEAN, audit=PASSED),
            evidence=_audit_evidence(CLEAN),
            stage=Stage.DONE,
            verdict=Verdict.VERIFIED_UNCONDITIONAL,
        ),
    ),
    Case(
        "every check passes with named hypotheses: verified conditionally, conditions listed",
        _CONDITIONAL,
        _audited(),
        evolve(
            with_work(_CONDITIONAL, final=CLEAN, audit=PASSED),
            evidence=_audit_evidence(CLEAN),
            stage=Stage.DONE,
            verdict=Verdict.VERIFIED_CONDITIONAL,
            conditions=[
                Condition(
                    name="h_cite",
                    lean_type="True",
                    kind=ConditionKind.CITED,
                    source=ConditionSource(key="k", locator="Theorem 2"),
                )
            ],
        ),
    ),
    Case(
        "the modules do not compile",
        _AUDITING,
        _audited(_UNCLEAN),
        _audit_failed(_audited(_UNCLEAN), "the modules do not compile: unknown constant"),
    ),
    Case(
        "an axiom outside the standard three",
        _AUDITING,
        _audited(_AXIOMS),
        _audit_failed(
            _audited(_AXIOMS), "axioms outside the standard three: ['propext', 'sorryAx']"
        ),
    ),
    Case(
        "a hygiene finding",
        _AUDITING,
        _audited(_HYGIENE),
        _audit_failed(_audited(_HYGIENE), "hygiene: T.lean:3:0: native_decide: refused"),
    ),
    Case(
        "the statement's fingerprint changed after the gate",
        _AUDITING,
        _audited(_DRIFTED),
        _audit_failed(_audited(_DRIFTED), "the statement's fingerprint differs from the gated one"),
    ),
    Case(
        "the auditor fails the proof",
        _AUDITING,
        _audited(audit=_FAILED_AUDIT),
        _audit_failed(_audited(audit=_FAILED_AUDIT), "final audit did not pass: skips step s1"),
    ),
    Case(
        "the proof does not follow the paper's route",
        _AUDITING,
        _audited(audit=_OFF_ROUTE),
        _audit_failed(_audited(audit=_OFF_ROUTE), "final audit did not pass: "),
    ),
    Case(
        "every failure is reported, joined",
        _AUDITING,
        _audited(evolve(_UNCLEAN, fingerprint_ok=False), _FAILED_AUDIT),
        _audit_failed(
            _audited(evolve(_UNCLEAN, fingerprint_ok=False), _FAILED_AUDIT),
            "the modules do not compile: unknown constant"
            " | the statement's fingerprint differs from the gated one"
            " | final audit did not pass: skips step s1",
        ),
    ),
]


@pytest.mark.parametrize("case", AUDIT_CASES, ids=_ids(AUDIT_CASES))
def test_audit(case):
    _run(case)


# --- a re-gate with the same statement keeps its proof (issue #14) -----------------------------

_KEPT = KeptProof(fingerprint="sha256:f", obligations=_PROVED)
_REGATED = with_work(_DRAFTED, kept=_KEPT)
_GATED_AGAIN = evolve(
    with_work(_REGATED, gates=[PASS], fingerprint="sha256:f", kept=None),
    stage=Stage.GATED,
    evidence=Evidence(gate=GATE_RECORD, statement_fingerprint="sha256:f"),
)
KEPT_CASES = [
    Case(
        "the gate passes the same fingerprint: the kept proofs stand, nothing to prove",
        _REGATED,
        _gated(PASS, "sha256:f"),
        with_work(_GATED_AGAIN, obligations=_PROVED, proof_kept=True),
    ),
    Case(
        "the gate passes another statement: the kept proofs are dropped, obligations open",
        _REGATED,
        _gated(PASS, "sha256:other"),
        evolve(
            with_work(_GATED_AGAIN, fingerprint="sha256:other", obligations=OBLIGATIONS),
            evidence=Evidence(gate=GATE_RECORD, statement_fingerprint="sha256:other"),
        ),
    ),
    Case(
        "the same fingerprint with other steps: not the same proof, obligations open",
        with_work(_REGATED, kept=evolve(_KEPT, obligations=_PROVED[1:])),
        _gated(PASS, "sha256:f"),
        with_work(_GATED_AGAIN, obligations=OBLIGATIONS),
    ),
    Case(
        "a kept proof that no longer builds in the new context is proved again, not failed",
        with_work(_AUDITING, proof_kept=True),
        _audited(_UNCLEAN),
        with_work(_AUDITING, obligations=OBLIGATIONS, proof_kept=False),
    ),
    Case(
        "a kept proof the auditor fails is a failed audit, as any proof",
        with_work(_AUDITING, proof_kept=True),
        _audited(audit=_FAILED_AUDIT),
        with_work(
            _audit_failed(_audited(audit=_FAILED_AUDIT), "final audit did not pass: skips step s1"),
            proof_kept=True,
        ),
    ),
]


@pytest.mark.parametrize("case", KEPT_CASES, ids=_ids(KEPT_CASES))
def test_kept_proof(case):
    _run(case)


# --- reconnect (issue #14) ----------------------------------------------------------------------

CLAUSE = DraftCondition(
    name="h_clause_b",
    lean_type="∀ y : ℕ, y = y",
    kind=ConditionKind.CLAUSE_UNVERIFIED,
    result="lem:b",
    used_by="s1",
)
_CLAUSE_CONDITION = Condition(
    name="h_clause_b",
    lean_type="∀ y : ℕ, y = y",
    kind=ConditionKind.CLAUSE_UNVERIFIED,
    source=ConditionSource(result="lem:b"),
    used_by="s1",
)
_CITED_CONDITION = Condition(
    name="h_cite",
    lean_type="True",
    kind=ConditionKind.CITED,
    source=ConditionSource(key="k", locator="Theorem 2"),
)
_ON_CLAUSE = evolve(
    with_work(_AUDITING, draft=evolve(DRAFT, conditions=[CLAUSE]), final=CLEAN, audit=PASSED),
    stage=Stage.DONE,
    verdict=Verdict.VERIFIED_CONDITIONAL,
    conditions=[_CLAUSE_CONDITION],
    evidence=_audit_evidence(CLEAN),
)
_ON_BOTH = evolve(
    with_work(_ON_CLAUSE, draft=evolve(DRAFT, conditions=[CONDITION, CLAUSE])),
    conditions=[_CITED_CONDITION, _CLAUSE_CONDITION],
)
_DISCHARGE = Discharge(condition="h_clause_b", result="lem:b", by="lem_b", fingerprint="sha256:b")
_RECONNECT_FILE = "lean/Paper/T_reconnect_1.lean"
_RECONNECTED = Reconnection(
    discharges=[_DISCHARGE],
    name="t_reconnected",
    accepted=True,
    file=_RECONNECT_FILE,
    final_check="audits/lem_a/reconnect-1-check.json",
    axioms=["propext"],
    record="audits/lem_a/reconnect-1.json",
)
_RECONNECT_HASHES = {_RECONNECT_FILE: "ee", "audits/lem_a/reconnect-1.json": "ff"}
_NOTE = (
    "reconnected: h_clause_b by lem_b (lem:b), in Lean: "
    "lean/Paper/T_reconnect_1.lean (audits/lem_a/reconnect-1.json)"
)
_MISMATCH = "Lean rejected the discharge: type mismatch: lem_b has type ∀ y : ℕ, 0 ≤ y"


def _reconnected(found: Reconnection = _RECONNECTED) -> ReconnectOutcome:
    hashes = _RECONNECT_HASHES if found.accepted else {found.record: "ff"}
    return ReconnectOutcome(action=action(ActionKind.RECONNECT), reconnection=found, hashes=hashes)


def _upgraded(before: ResultRecord, verdict: Verdict, conditions: list[Condition]) -> ResultRecord:
    hashes = {**before.evidence.hashes, **_RECONNECT_HASHES}
    return evolve(
        with_work(before, reconnections=[*reconnections(before.work), _RECONNECTED]),
        verdict=verdict,
        conditions=conditions,
        evidence=evolve(before.evidence, hashes=hashes),
        notes=[*before.notes, _NOTE],
    )


_REJECTED = evolve(_RECONNECTED, accepted=False, detail=_MISMATCH, file=None, final_check=None)
RECONNECT_CASES = [
    Case(
        "the discharge passes Lean: the clause is gone, verified unconditionally",
        _ON_CLAUSE,
        _reconnected(),
        _upgraded(_ON_CLAUSE, Verdict.VERIFIED_UNCONDITIONAL, []),
    ),
    Case(
        "another condition remains: still conditional, on that one only",
        _ON_BOTH,
        _reconnected(),
        _upgraded(_ON_BOTH, Verdict.VERIFIED_CONDITIONAL, [_CITED_CONDITION]),
    ),
    Case(
        "the clause does not match the predecessor: stays conditional, Lean's reason noted",
        _ON_CLAUSE,
        _reconnected(_REJECTED),
        evolve(
            with_work(_ON_CLAUSE, reconnections=[_REJECTED]),
            notes=["reconnection not made: " + _MISMATCH],
        ),
    ),
    Case(
        "Lean accepted the warm check but the cold build failed: stays conditional",
        _ON_CLAUSE,
        _reconnected(evolve(_REJECTED, detail="final build not clean: unknown constant")),
        evolve(
            with_work(
                _ON_CLAUSE,
                reconnections=[evolve(_REJECTED, detail="final build not clean: unknown constant")],
            ),
            notes=["reconnection not made: final build not clean: unknown constant"],
        ),
    ),
    Case(
        "a later success replaces the earlier note",
        evolve(_ON_CLAUSE, notes=["re-gated", "reconnection not made: " + _MISMATCH]),
        _reconnected(),
        evolve(
            _upgraded(_ON_CLAUSE, Verdict.VERIFIED_UNCONDITIONAL, []),
            notes=["re-gated", _NOTE],
        ),
    ),
]


_SECOND = Discharge(condition="h_clause_c", result="lem:c", by="lem_c", fingerprint="sha256:c")
_LATER_REJECTED = evolve(
    _REJECTED, discharges=[_DISCHARGE, _SECOND], record="audits/lem_a/reconnect-2.json"
)
_FIRST_DONE = _upgraded(_ON_CLAUSE, Verdict.VERIFIED_UNCONDITIONAL, [])
RECONNECT_CASES.append(
    Case(
        "a later attempt Lean rejects keeps the earlier discharge and its verdict",
        _FIRST_DONE,
        _reconnected(_LATER_REJECTED),
        evolve(
            with_work(_FIRST_DONE, reconnections=[_RECONNECTED, _LATER_REJECTED]),
            notes=[_NOTE, "reconnection not made: " + _MISMATCH],
        ),
    )
)


@pytest.mark.parametrize("case", RECONNECT_CASES, ids=_ids(RECONNECT_CASES))
def test_reconnect(case):
    _run(case)


# --- the registry and the shell ---------------------------------------------------------------


def test_every_action_kind_has_a_step_with_its_kind():
    assert set(REGISTRY) == set(ActionKind)
    assert all(step.kind is kind for kind, step in REGISTRY.items())


def test_apply_changes_only_the_outcomes_result():
    other = ResultRecord(id="lem:b", number="2", kind="lemma")
    results = Results(results=[record(), other])
    outcome = PlanOutcome(action=action(ActionKind.PLAN), plan=PLAN)
    new = apply(results, outcome, POLICY)
    assert new.results == [PLAN_CASES[0].after, other]


def test_evolve_refuses_a_misspelt_field():
    with pytest.raises(TypeError, match="no field verdikt"):
        evolve(record(), verdikt=Verdict.ISSUE)

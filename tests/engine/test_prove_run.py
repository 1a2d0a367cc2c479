"""The prove step's `run`, at its edges: the automation ladder first (zero model calls when a
rung is accepted under the full rule), then the prover's candidate, refused before Lean when
it changes the statement, else checked.

The Lean answers are hand-written `LeanCheck`/`AxiomReport` values (a labelled stand-in for
the REPL, no Lean here); the candidates, the ladder and the refusal scan are real."""

from types import SimpleNamespace

import pytest

from paperlint.agents.inputs import ProverInputs, ResultText, StepObligation
from paperlint.agents.outputs import ProverOutput
from paperlint.engine.actions import Action, ActionKind
from paperlint.engine.steps.prove import ProveInputs, run
from paperlint.lean.verifier import AxiomReport, LeanCheck, LeanContext, LeanMessage, Outcome
from paperlint.records.results import ResultRecord
from paperlint.records.work import Obligation
from paperlint.records.workspace import Workspace
from tests.engine.conftest import settings

SKELETON = "theorem t (x : ℕ) : x = x := by\n  sorry"
PROOF = "theorem t (x : ℕ) : x = x := rfl"
RECORD = ResultRecord(id="lem:a", number="1", kind="lemma")
ERROR = LeanMessage(severity="error", line=1, column=29, text="type mismatch")


class _Lean:
    """Accepts the candidates `accepts` says yes to; standard axioms for every name."""

    is_replay = True

    def __init__(self, accepts=lambda candidate: True, outcome=Outcome.REJECTED):
        self.accepts = accepts
        self.outcome = outcome
        self.asked: list[str] = []

    def check(self, context, candidate, *, timeout_s):
        self.asked.append(candidate)
        if self.accepts(candidate):
            return LeanCheck(outcome=Outcome.ACCEPTED)
        return LeanCheck(outcome=self.outcome, messages=(ERROR,))

    def print_axioms(self, context, names, *, timeout_s):
        return AxiomReport(outcome=Outcome.ACCEPTED, axioms={n: ("propext",) for n in names})


def _ctx(tmp_path, lean, *, reply=None, automation=False):
    events, asked = [], []

    def ask(task, **kw):
        asked.append(kw["model"])
        return reply

    return SimpleNamespace(
        ws=Workspace(tmp_path / "ws"),
        verifier=lean,
        settings=settings(
            header="",
            models={},
            lean_timeout_s=5.0,
            automation_first=automation,
            automation_timeout_s=5.0,
        ),
        emit=lambda e: events.append(e.as_event()),
        ask=ask,
        events=events,
        asked=asked,
    )


def _given(attempt=1, skeleton=SKELETON):
    action = Action(
        kind=ActionKind.PROVE, result="lem:a", obligation="main", attempt=attempt, model="cheap"
    )
    obligation = Obligation(id="main", skeleton=skeleton)
    prompt = ProverInputs(
        result=ResultText(id="lem:a", kind="lemma", statement="x = x"),
        obligation=StepObligation(id="main", lean=skeleton),
    )
    return ProveInputs(action, prompt, obligation, LeanContext(header="import Mathlib"))


def test_a_rung_of_the_ladder_closes_the_obligation_without_a_model(tmp_path):
    ctx = _ctx(tmp_path, _Lean(), automation=True)
    outcome = run(ctx, RECORD, _given())
    assert ctx.asked == []  # no model call
    assert outcome.check.accepted and outcome.accepted_text == outcome.prover.lean
    assert "sorry" not in outcome.accepted_text
    assert (ctx.ws.root / outcome.check.file).read_text() == outcome.accepted_text
    assert ctx.events[-1]["kind"].startswith("automation:")


@pytest.mark.parametrize(
    ("attempt", "skeleton", "automation"),
    [
        (1, SKELETON, False),  # automation off
        (2, SKELETON, True),  # only the first attempt tries the ladder
        (1, "garbage", True),  # nothing to aim the ladder at
    ],
    ids=["off", "second-attempt", "unparsable"],
)
def test_the_model_is_asked_when_the_ladder_does_not_apply(tmp_path, attempt, skeleton, automation):
    lean = _Lean(accepts=lambda c: c == PROOF)
    ctx = _ctx(tmp_path, lean, reply=ProverOutput(lean=PROOF), automation=automation)
    outcome = run(ctx, RECORD, _given(attempt, skeleton))
    assert ctx.asked == ["cheap"]
    if skeleton == SKELETON:
        assert lean.asked == [PROOF] and outcome.accepted_text == PROOF
    else:  # the candidate does not fill this skeleton: refused before Lean
        assert lean.asked == [] and not outcome.check.accepted


def test_when_every_rung_fails_the_model_gets_the_obligation(tmp_path):
    lean = _Lean(accepts=lambda c: c == PROOF)
    ctx = _ctx(tmp_path, lean, reply=ProverOutput(lean=PROOF), automation=True)
    outcome = run(ctx, RECORD, _given())
    assert ctx.asked == ["cheap"] and lean.asked[-1] == PROOF and len(lean.asked) > 1
    assert outcome.check.accepted


@pytest.mark.parametrize(
    ("candidate", "outcome", "accepted", "timed_out", "feedback"),
    [
        (PROOF, Outcome.REJECTED, True, False, ""),
        ("theorem t (x : ℕ) : x = x := by simp", Outcome.REJECTED, False, False, "type mismatch"),
        ("theorem t (x : ℕ) : x = x := by simp", Outcome.TIMEOUT, False, True, ""),
        (
            "theorem t : True := trivial",
            Outcome.REJECTED,
            False,
            False,
            "statement of t was changed",
        ),
    ],
    ids=["accepted", "rejected", "timed-out", "statement-changed"],
)
def test_the_prover_candidate(tmp_path, candidate, outcome, accepted, timed_out, feedback):
    lean = _Lean(accepts=lambda c: c == PROOF, outcome=outcome)
    ctx = _ctx(tmp_path, lean, reply=ProverOutput(lean=candidate))
    result = run(ctx, RECORD, _given())
    assert (result.check.accepted, result.check.timed_out) == (accepted, timed_out)
    assert feedback in result.check.feedback
    assert result.accepted_text == (PROOF if accepted else None)
    assert (ctx.ws.root / result.check.file).read_text() == candidate
    if feedback.startswith("statement"):
        assert lean.asked == []  # refused before Lean

"""The effects side of the steps, at its edges: what `run` makes of a refused, unparsable or
timed-out candidate, and how the shell turns a missing model or Lean into a typed `Failed`.

The Lean answers here are hand-written `LeanCheck` values (a labelled stand-in for the REPL,
no Lean on this machine); the candidates and the refusal scan are real."""

from types import SimpleNamespace

import pytest

from paperlint.agents.faults import ModelUnavailableError, no_model
from paperlint.agents.inputs import ArchitectInputs, ResultText
from paperlint.agents.outputs import ArchitectOutput, DraftOutput, FidelityFields, GateOutput
from paperlint.domain import Role
from paperlint.engine import execute as execute_module
from paperlint.engine.actions import Action, ActionKind, Failure
from paperlint.engine.execute import execute
from paperlint.engine.steps import Failed, Step
from paperlint.engine.steps.draft import DraftInputs
from paperlint.engine.steps.draft import typecheck as _typecheck
from paperlint.engine.steps.effects import LeanUnavailable, ask
from paperlint.engine.steps.prove import proof_problem
from paperlint.errors import ModelError
from paperlint.lean.verifier import LeanCheck, LeanContext, LeanMessage, Outcome
from paperlint.records.results import ResultRecord, Results, Stage
from paperlint.records.workspace import Workspace

SKELETON = "theorem t (x : ℕ) : x = x := by\n  sorry"
FIDELITY = FidelityFields(
    object_class="x",
    quantifier_order="x",
    parameter_domains="x",
    codomain="x",
    hypotheses="x",
    conclusion="x",
)
ACTION = Action(kind=ActionKind.DRAFT, result="lem:a")


@pytest.mark.parametrize(
    ("candidate", "problem"),
    [
        ("theorem t (x : ℕ) : x = x := rfl", ""),
        ("theorem t (x : ℕ) : x = x := by\n  sorry", "refused before Lean"),
        ("theorem u (x : ℕ) : x = x := rfl", "exactly one declaration named t"),
        (
            "theorem t (x : ℕ) : x = x := rfl\ntheorem t (x : ℕ) : x = x := rfl",
            "exactly one declaration named t",
        ),
        ("theorem t (x : ℕ) : True := trivial", "the statement of t was changed"),
    ],
)
def test_a_proof_may_only_fill_the_sorry(candidate, problem):
    found = proof_problem(SKELETON, candidate)
    assert (problem in found) if problem else found == ""


def test_an_unparsable_skeleton_is_refused():
    assert proof_problem("garbage", "theorem t : True := trivial") == (
        "the obligation's skeleton could not be parsed"
    )


class _Verifier:
    is_replay = True

    def __init__(self, answer: LeanCheck):
        self.answer = answer
        self.asked: list[str] = []

    def check(self, context, candidate, *, timeout_s):
        self.asked.append(candidate)
        return self.answer


def _ctx(tmp_path, answer=None, models=None, reply=None):
    events = []
    ws = Workspace(tmp_path / "ws")
    return SimpleNamespace(
        ws=ws,
        verifier=_Verifier(answer or LeanCheck(outcome=Outcome.ACCEPTED)),
        settings=SimpleNamespace(lean_timeout_s=5.0, models=models or {}),
        emit=lambda e: events.append(e.as_event()),
        ask=lambda task, **kw: reply,
        events=events,
    )


def _given(draft):
    prompt = None  # not read by the type-check
    return DraftInputs(ACTION, prompt, LeanContext(header="import Mathlib"))


def _draft(statement, definitions=()):
    return DraftOutput(
        lean_name="t", statement=statement, fidelity=FIDELITY, definitions=list(definitions)
    )


ERROR = LeanMessage(severity="error", line=1, column=0, text="unknown identifier 'y'")


@pytest.mark.parametrize(
    ("kind", "draft", "answer", "ok", "feedback"),
    [
        ("lemma", _draft(SKELETON), LeanCheck(outcome=Outcome.REJECTED), True, ""),
        (
            "lemma",
            _draft("theorem t : True := by native_decide"),
            None,
            False,
            "refused before Lean",
        ),
        ("lemma", _draft("x = x"), None, False, "is not one Lean declaration"),
        (
            "lemma",
            _draft(SKELETON),
            LeanCheck(outcome=Outcome.REJECTED, messages=(ERROR,)),
            False,
            "unknown identifier",
        ),
        (
            "lemma",
            _draft(SKELETON),
            LeanCheck(outcome=Outcome.TIMEOUT),
            False,
            "Lean timed out elaborating the statement",
        ),
        (
            "definition",
            _draft("def IsNice (x : ℕ) : Prop := 0 < x"),
            LeanCheck(outcome=Outcome.REJECTED),
            False,
            "a definition must elaborate without `sorry`",
        ),
    ],
)
def test_draft_typecheck(tmp_path, kind, draft, answer, ok, feedback):
    ctx = _ctx(tmp_path, answer)
    record = ResultRecord(id="lem:a", number="1", kind=kind)
    got_ok, got_feedback = _typecheck(ctx, record, _given(draft), draft)
    assert got_ok is ok
    assert feedback in got_feedback
    asked = bool(ctx.verifier.asked)
    assert asked is (answer is not None)  # refused drafts never reach Lean


def test_an_unavailable_lean_stops_the_step(tmp_path):
    answer = LeanCheck(outcome=Outcome.UNAVAILABLE, hint="no lake")
    ctx = _ctx(tmp_path, answer)
    record = ResultRecord(id="lem:a", number="1", kind="lemma")
    with pytest.raises(LeanUnavailable, match="no lake"):
        _typecheck(ctx, record, _given(_draft(SKELETON)), _draft(SKELETON))
    assert ctx.events[-1]["outcome"] == "unavailable"


PROMPT = ArchitectInputs(result=ResultText(id="lem:a", kind="lemma", statement="S"))


def test_ask_without_a_model_for_the_role(tmp_path):
    ctx = _ctx(tmp_path, models={"architect": None})
    with pytest.raises(ModelUnavailableError, match="no model configured for role architect"):
        ask(ctx, "architect", Role.ARCHITECT, ACTION, PROMPT, ArchitectOutput)


def test_ask_refuses_an_answer_of_the_wrong_type(tmp_path):
    reply = GateOutput(decision="BLOCK", fields=[], reasons=["not the paper's statement"])
    ctx = _ctx(tmp_path, models={"architect": "m"}, reply=reply)
    with pytest.raises(ModelError, match="expected ArchitectOutput, got GateOutput"):
        ask(ctx, "architect", Role.ARCHITECT, ACTION, PROMPT, ArchitectOutput)


@pytest.mark.parametrize(
    ("error", "failure"),
    [
        (no_model("architect"), Failure.MODEL_UNAVAILABLE),
        (LeanUnavailable("no lean"), Failure.LEAN_UNAVAILABLE),
        (ModelError("bad json"), Failure.INVALID_MODEL_OUTPUT),
    ],
)
def test_the_shell_turns_an_edge_failure_into_failed(monkeypatch, error, failure):
    def run(ctx, record, given):
        raise error

    step = Step(
        kind=ActionKind.PLAN,
        role=Role.ARCHITECT,
        stage=Stage.PLANNED,
        ready=lambda record, policy: None,
        inputs=lambda record, view: None,
        run=run,
        apply=lambda record, outcome, policy: record,
    )
    monkeypatch.setitem(execute_module.REGISTRY, ActionKind.PLAN, step)
    results = Results(results=[ResultRecord(id="lem:a", number="1", kind="lemma")])
    action = Action(kind=ActionKind.PLAN, result="lem:a")
    assert execute(None, results, action) == Failed(
        action=action, failure=failure, detail=str(error)
    )


def test_an_action_for_an_unknown_result_is_an_engine_bug():
    with pytest.raises(KeyError):
        execute(None, Results(), Action(kind=ActionKind.PLAN, result="lem:none"))

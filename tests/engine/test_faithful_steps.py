"""The engine's faithfulness steps (#15), case-table style: `second_draft` (ready, apply), the
gate's readiness when double drafting is on, and what the gate's `apply` does with each
faithfulness decision (keep the first draft, gate the second, start an ERROR or a
DOMAIN_CLARIFICATION, redraft)."""

import pytest

from paperlint.agents.outputs import DraftOutput, GateRuling, Reading
from paperlint.engine.actions import ActionKind
from paperlint.engine.plan import Policy
from paperlint.engine.steps import gate, second_draft
from paperlint.engine.steps.base import evolve
from paperlint.engine.steps.gate import GateOutcome
from paperlint.engine.steps.second_draft import SecondDraftOutcome
from paperlint.faithful.policy import Decision, Next
from paperlint.records.results import Evidence, Stage
from paperlint.records.slots import draft_of, obligations_of
from paperlint.records.work import CounterexampleCheck, Obligation, Suspicion
from tests.engine.test_step_apply import (
    _DEFINITION,
    _DRAFTED,
    FIDELITY,
    GATE_RECORD,
    PASS,
    action,
    with_work,
)

ON = Policy(prover_ladder=("m",), double_draft=True)
OFF = Policy(prover_ladder=("m",))
SECOND = DraftOutput(
    lean_name="t", statement="theorem t (y : ℕ) : y = y := by\n  sorry", fidelity=FIDELITY
)


def _second(record, **slot):
    """`record` with the second draft's own state (its slot, issue #27)."""
    return record.with_work(record.work.with_slot(second_draft.SecondDraft(**slot)))


# --- second_draft: when it is due ----------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "record", "policy", "due"),
    [
        ("a standing first draft, double drafting on", _DRAFTED, ON, True),
        ("double drafting off (the default)", _DRAFTED, OFF, False),
        ("asked already: never twice", _second(_DRAFTED, asked=True), ON, False),
        ("a definition is never double drafted", _DEFINITION, ON, False),
        ("the first draft was sent back", with_work(_DRAFTED, draft_feedback="no"), ON, False),
        ("already gated", with_work(_DRAFTED, fingerprint="f"), ON, False),
    ],
)
def test_second_draft_ready(name, record, policy, due):
    got = second_draft.ready(record, policy)
    assert (got is not None) is due, name
    if due:
        assert (got.kind, got.attempt) == (ActionKind.SECOND_DRAFT, 1)


def test_the_gate_waits_for_the_second_draft_only_when_double_drafting_is_on():
    assert gate.ready(_DRAFTED, ON) is None
    assert gate.ready(_second(_DRAFTED, asked=True), ON) is not None
    assert gate.ready(_DRAFTED, OFF) is not None
    assert gate.ready(_DEFINITION, ON) is not None  # definitions are drafted once


@pytest.mark.parametrize(
    ("outcome", "work"),
    [
        (
            SecondDraftOutcome(action=action(ActionKind.SECOND_DRAFT), draft=SECOND),
            {"draft": SECOND, "asked": True},
        ),
        (
            SecondDraftOutcome(
                action=action(ActionKind.SECOND_DRAFT), draft=None, feedback="unknown identifier"
            ),
            {"asked": True, "feedback": "unknown identifier"},
        ),
    ],
    ids=["usable", "did-not-type-check"],
)
def test_second_draft_apply_records_it_once_and_changes_nothing_else(outcome, work):
    assert second_draft.apply(_DRAFTED, outcome, ON) == _second(_DRAFTED, **work)


# --- the gate's apply, per faithfulness decision ----------------------------------------------

_ASKED = _second(_DRAFTED, draft=SECOND, asked=True)


def _outcome(next_: Next, **kw) -> GateOutcome:
    return GateOutcome(
        action=action(ActionKind.GATE),
        review=PASS,
        record=GATE_RECORD,
        fingerprint=kw.pop("fingerprint", "fp"),
        faithful=Decision(next=next_, why=f"why {next_.value}"),
        **kw,
    )


def _passed(before, draft, **work):
    skeletons = [Obligation(id=o.id, skeleton=o.lean) for o in draft.obligations]
    new = with_work(
        before,
        gates=[PASS],
        fingerprint="fp",
        draft=draft,
        obligations=[*skeletons, Obligation(id="main", skeleton=draft.statement)],
        **work,
    )
    return evolve(
        new, stage=Stage.GATED, evidence=Evidence(gate=GATE_RECORD, statement_fingerprint="fp")
    )


def test_drafts_agree_or_the_gate_keeps_draft_1():
    for next_ in (Next.PROCEED, Next.KEEP_FIRST):
        got = gate.apply(_ASKED, _outcome(next_), ON)
        assert got == _passed(_ASKED, draft_of(_ASKED.work)), next_


def test_the_gate_rules_draft_2_the_paper_s_then_draft_2_is_gated():
    got = gate.apply(_ASKED, _outcome(Next.USE_SECOND, gated_second=SECOND), ON)
    assert got == _passed(_ASKED, SECOND)
    assert obligations_of(got.work)[-1].skeleton == SECOND.statement


def test_a_refuted_statement_held_faithful_starts_an_error_with_its_compiled_counterexample():
    cex = CounterexampleCheck(file="lean/T_counterexample.lean", accepted=True, axioms_ok=True)
    got = gate.apply(_ASKED, _outcome(Next.ERROR_ISSUE, counterexample=cex), ON)
    suspicion = Suspicion(obligation=None, reason="why error_issue", raised_by="gate")
    assert got == _passed(_ASKED, draft_of(_ASKED.work), suspicion=suspicion, counterexample=cex)
    # no proof search while the issue is under review: the issue checker comes next
    from paperlint.engine.steps import check_issue, prove

    assert prove.ready(got, ON) is None
    assert check_issue.ready(got, ON) is not None


def test_two_defensible_readings_start_a_domain_clarification():
    got = gate.apply(_ASKED, _outcome(Next.DOMAIN_CLARIFICATION), ON)
    suspicion = Suspicion(obligation=None, reason="why domain_clarification", raised_by="gate")
    assert got == _passed(_ASKED, draft_of(_ASKED.work), suspicion=suspicion)


def test_the_gate_ruling_is_decided_last_in_its_output_schema():
    from paperlint.agents.outputs import GateOutput

    fields = list(GateOutput.model_fields)
    assert fields[-1] == "decision" and fields.index("ruling") > fields.index("reasons")
    ruling = GateRuling(reading=Reading.SECOND)
    assert list(GateRuling.model_fields)[0] == "lint_answers" and ruling.statement_faithful is None


# --- second_draft: what it is asked, and of whom ----------------------------------------------


def _asking_ctx(tmp_path, models, reply):
    from types import SimpleNamespace

    from paperlint.lean.verifier import LeanCheck, Outcome

    asked: list[dict] = []

    def ask(task, **kw):
        asked.append({"task": task, **kw})
        return reply

    verifier = SimpleNamespace(
        check=lambda context, text, timeout_s: LeanCheck(outcome=Outcome.ACCEPTED, replay=True)
    )
    ctx = SimpleNamespace(
        ask=ask,
        verifier=verifier,
        emit=lambda e: None,
        settings=SimpleNamespace(models=models, lean_timeout_s=60),
        ws=SimpleNamespace(audit_dir=lambda rid: tmp_path, rel=lambda p: p.name),
    )
    return ctx, asked


def _first_inputs():
    from paperlint.agents.inputs import DrafterInputs, FailedAttempt, ResultText
    from paperlint.engine.steps.draft import DraftInputs
    from paperlint.lean.verifier import LeanContext

    prompt = DrafterInputs(
        result=ResultText(id="lem:a", kind="lemma", statement="$x = x$"),
        failed_attempts=[FailedAttempt(lean="theorem t (x : ℤ) …", feedback="gate blocked")],
    )
    return DraftInputs(action(ActionKind.SECOND_DRAFT), prompt, LeanContext(header="H"))


@pytest.mark.parametrize(
    ("models", "model"),
    [
        ({"drafter": "m-draft", "second_drafter": "m-second"}, "m-second"),
        ({"drafter": "m-draft"}, "m-draft"),  # default: the same model, in a fresh context
    ],
)
def test_the_second_draft_is_asked_afresh_on_the_configured_model(tmp_path, models, model):
    first = _first_inputs()
    from paperlint.engine.steps.draft import DraftInputs
    from paperlint.faithful.drafting import independent_inputs

    given = DraftInputs(first.action, independent_inputs(first.prompt), first.context)
    ctx, asked = _asking_ctx(tmp_path, models, SECOND)
    outcome = second_draft.run(ctx, _DRAFTED, given)
    assert outcome.draft == SECOND and outcome.feedback == ""
    [call] = asked
    assert (call["task"], call["role"], call["model"]) == ("second_drafter", "drafter", model)
    assert call["inputs"]["failed_attempts"] == []  # nothing of the first round
    assert (tmp_path / "second-draft-1.json").is_file()
    assert (tmp_path / "second-draft-1.lean").is_file()


def test_an_invalid_second_draft_is_no_second_draft_never_a_stop(tmp_path):
    from paperlint.errors import ModelError

    first = _first_inputs()
    ctx, _ = _asking_ctx(tmp_path, {"drafter": "m"}, None)

    def broken(task, **kw):
        raise ModelError("not JSON after 2 repairs")

    ctx.ask = broken
    outcome = second_draft.run(ctx, _DRAFTED, first)
    assert outcome.draft is None and "not JSON" in outcome.feedback
    assert second_draft.state(second_draft.apply(_DRAFTED, outcome, ON)).asked

"""The queue policy, tested as the pure function it is: no model, no Lean."""

from paperlint.agents.outputs import DraftOutput, FidelityFields, GateOutput
from paperlint.engine.actions import ActionKind
from paperlint.engine.plan import Policy, Stop, plan, prover_model
from paperlint.records.results import (
    ResultRecord,
    Results,
    Stage,
    Unfinished,
    UnfinishedReason,
    Verdict,
)
from paperlint.records.spend import Budget, Spend
from paperlint.records.work import Obligation, Suspicion
from tests.workstate import evolved, work_of

POLICY = Policy(prover_ladder=("cheap", "strong"), prover_attempts=4, escalate_after=2)
FIDELITY = FidelityFields(
    object_class="x",
    quantifier_order="x",
    parameter_domains="x",
    codomain="x",
    hypotheses="x",
    conclusion="x",
)


def draft(**kw):
    base = {"lean_name": "t", "statement": "theorem t : True := by\n  sorry", "fidelity": FIDELITY}
    return DraftOutput(**{**base, **kw})


def record(rid="lem:a", kind="lemma", **work):
    return ResultRecord(id=rid, number="1", kind=kind).with_work(work_of(**work))


def results(*records):
    return Results(results=list(records))


def test_a_fresh_result_starts_with_the_architect():
    action = plan(results(record()), ["lem:a"], POLICY, Spend())
    assert action.kind is ActionKind.PLAN


def test_definitions_skip_the_architect_and_come_first_in_the_order():
    recs = results(record("lem:a"), record("def:d", kind="definition"))
    action = plan(recs, ["def:d", "lem:a"], POLICY, Spend())
    assert (action.kind, action.result) == (ActionKind.DRAFT, "def:d")


def test_one_obligation_is_active_at_a_time_in_order():
    obligations = [
        Obligation(id="s1", skeleton="…", status="proved"),
        Obligation(id="s2", skeleton="…"),
        Obligation(id="main", skeleton="…"),
    ]
    rec = record(plan=None, draft=draft(), fingerprint="sha256:x", obligations=obligations)
    rec = rec.with_work(evolved(rec.work, plan=_plan()))
    action = plan(results(rec), ["lem:a"], POLICY, Spend())
    assert (action.kind, action.obligation, action.attempt) == (ActionKind.PROVE, "s2", 1)


def test_the_prover_escalates_after_repeated_failures():
    assert [prover_model(POLICY, a) for a in (1, 2, 3, 4)] == ["cheap", "cheap", "strong", "strong"]


def test_a_blocked_gate_sends_the_statement_back_until_rounds_run_out():
    rec = record(
        plan=_plan(),
        draft=draft(),
        draft_rounds=1,
        draft_feedback="gate blocked: x",
        gates=[GateOutput(decision="BLOCK", fields=[])],
    )
    action = plan(results(rec), ["lem:a"], POLICY, Spend())
    assert (action.kind, action.attempt) == (ActionKind.DRAFT, 2)
    spent = rec.with_work(evolved(rec.work, draft_rounds=2))
    assert plan(results(spent), ["lem:a"], POLICY, Spend()) == Stop(None)


def test_an_exhausted_obligation_goes_to_the_issue_checker():
    rec = record(
        plan=_plan(),
        draft=draft(),
        fingerprint="sha256:x",
        obligations=[Obligation(id="s1", skeleton="…", status="failed", attempts=4)],
        suspicion=Suspicion(obligation="s1", reason="not proved"),
    )
    action = plan(results(rec), ["lem:a"], POLICY, Spend())
    assert action.kind is ActionKind.CHECK_ISSUE


def test_the_budget_stops_the_run_before_the_next_call():
    policy = Policy(prover_ladder=("m",), budget=Budget(max_calls=3))
    stop = plan(results(record()), ["lem:a"], policy, Spend(calls=3))
    assert stop == Stop(UnfinishedReason.BUDGET_EXHAUSTED)


def test_done_results_are_not_planned_but_soft_unfinished_ones_are():
    done = record().model_copy(update={"stage": Stage.DONE, "verdict": Verdict.ISSUE})
    assert plan(results(done), ["lem:a"], POLICY, Spend()) == Stop(None)
    soft = record().model_copy(
        update={
            "verdict": Verdict.UNFINISHED,
            "unfinished": Unfinished(reason="budget_exhausted", detail=""),
        }
    )
    assert plan(results(soft), ["lem:a"], POLICY, Spend()).kind is ActionKind.PLAN


def _plan():
    from paperlint.agents.outputs import ArchitectOutput

    return ArchitectOutput(steps=[])

"""The gate step with the counterexample probe (#15): a refutation turns a PASS into a BLOCK
that carries the witness back to the drafter (the pure `apply`, case-table style)."""

from paperlint.agents.outputs import GateOutput
from paperlint.engine.actions import ActionKind
from paperlint.engine.plan import Policy
from paperlint.engine.steps import gate
from paperlint.engine.steps.base import evolve
from paperlint.engine.steps.gate import GateOutcome, Vacuity
from paperlint.records.results import Evidence, Stage
from tests.engine.test_step_apply import _DRAFTED, GATE_RECORD, PASS, action, with_work

WHY = "Lean refutes the drafted statement: a mistranslation: Lean REFUTES the statement at m := 0"


def test_a_refuted_statement_goes_back_to_the_drafter_with_the_witness():
    outcome = GateOutcome(
        action=action(ActionKind.GATE),
        review=PASS,
        refutation=Vacuity(reason=WHY),
        record=GATE_RECORD,
        fingerprint=None,
    )
    new = gate.apply(_DRAFTED, outcome, Policy(prover_ladder=("m",)))
    blocked = GateOutput(decision="BLOCK", fields=PASS.fields, reasons=[*PASS.reasons, WHY])
    assert new == evolve(
        with_work(_DRAFTED, gates=[blocked], draft_feedback=f"gate blocked: {WHY}"),
        stage=Stage.GATE_BLOCKED,
        evidence=Evidence(gate=GATE_RECORD),
    )


def test_the_probe_runs_in_the_gate_and_writes_its_record(tmp_path):
    from types import SimpleNamespace

    from paperlint.agents.outputs import DraftOutput
    from paperlint.engine.steps.gate import GateStepInputs, _faithfulness, _refutation
    from paperlint.faithful.policy import decide
    from paperlint.lean.replay import ReplayVerifier
    from paperlint.records.faithfulness import FILE, read_evidence
    from tests.engine.test_step_apply import FIDELITY
    from tests.faithful import build_fixtures as fx

    case = fx.CASES["nat-subtraction"]
    events: list[dict] = []
    ctx = SimpleNamespace(
        verifier=ReplayVerifier(fx.FOLDER / "nat-subtraction"),
        settings=SimpleNamespace(lean_timeout_s=60),
        emit=lambda e: events.append(e.as_event()),
        ws=SimpleNamespace(audit_dir=lambda rid: tmp_path, rel=lambda p: p.name),
    )
    draft = DraftOutput(lean_name="sq_sub", statement=case.first, fidelity=FIDELITY)
    prompt = SimpleNamespace(result=SimpleNamespace(statement=case.tex))
    given = GateStepInputs(action(ActionKind.GATE), prompt, draft, fx.context(), fx.context())
    record = evolve(_DRAFTED, id=case.result)
    # the checks run before the review; with no ruling on them, a refutation redrafts
    blocked = _refutation(decide(_faithfulness(ctx, record, given, draft), None))
    assert blocked is not None and "m := 0, n := 1" in blocked.reason
    evidence = read_evidence(tmp_path / FILE)
    assert evidence.probe.refuted and [x.rule.value for x in evidence.lints] == ["nat-arithmetic"]
    assert events == [
        {"type": "lean_check", "result": case.result, "obligation": None, "kind": "faithfulness",
         "outcome": "refuted", "code": None, "checked": 2, "duration_s": 0.0, "replay": True}
    ]  # fmt: skip

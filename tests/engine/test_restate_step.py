"""The revise hook of #15: `revise` sets a verified proof aside, and the engine's `restate` step
carries it to a new statement Lean proves equivalent (HAND-WRITTEN Lean answers by rule,
`tests.faithful.lean_answers.Author`; no Lean was run)."""

from types import SimpleNamespace

import pytest

from paperlint.agents.outputs import DraftOutput
from paperlint.engine.actions import ActionKind
from paperlint.engine.plan import Policy
from paperlint.engine.steps import prove, restate
from paperlint.engine.steps.base import evolve
from paperlint.engine.steps.restate import PreviousProof, RestateInputs, RestateOutcome, SetAside
from paperlint.lean.verifier import LeanContext
from paperlint.records.results import Stage, Verdict
from paperlint.records.rewind import rewind
from paperlint.records.slots import obligations_of
from paperlint.records.work import Obligation
from tests.engine.test_step_apply import FIDELITY, action, record
from tests.faithful.lean_answers import Author, error, ok, when
from tests.workstate import evolved

POLICY = Policy(prover_ladder=("m",))
OLD = "theorem t (x y : ℝ) (h : x ≤ y) : (x + y) / 2 ≤ y := by\n  sorry"
OLD_PROOF = "theorem t (x y : ℝ) (h : x ≤ y) : (x + y) / 2 ≤ y := by\n  linarith"
NEW = "theorem t (a b : ℝ) (hab : a ≤ b) : (a + b) / 2 ≤ b := by\n  sorry"
PREVIOUS = PreviousProof(statement=OLD, lean_name="t", proof=OLD_PROOF)
NEW_DRAFT = DraftOutput(lean_name="t", statement=NEW, fidelity=FIDELITY)
GATED = record(
    stage=Stage.GATED,
    work={
        "draft": NEW_DRAFT,
        "fingerprint": "fp",
        "plan": {"steps": []},
        "obligations": [Obligation(id="main", skeleton=NEW)],
        "slots": {"restate": SetAside(previous=PREVIOUS)},
    },
)


def _restate(before, **slot):
    """`before` with the restate step's own state changed (its slot, issue #27)."""
    return before.with_work(before.work.with_slot(evolve(restate.state(before), **slot)))


def test_revise_sets_a_verified_proof_aside_on_a_statement_reset_only():
    verified = record(
        verdict=Verdict.VERIFIED_UNCONDITIONAL,
        work={
            "draft": DraftOutput(lean_name="t", statement=OLD, fidelity=FIDELITY),
            "obligations": [Obligation(id="main", skeleton=OLD, status="proved", proof=OLD_PROOF)],
        },
    )

    # the restate step's reset rule, asked by the rewind (`revised_results` passes revision)
    def kept(before, action_, revision=True):
        return restate.state(rewind(before, action_, revision=revision)).previous

    for action_ in ("re-draft", "re-gate"):
        assert kept(verified, action_) == PREVIOUS
        assert kept(verified, action_, revision=False) is None  # the convergence re-gate
    assert kept(verified, "re-prove") is None
    assert kept(evolve(verified, verdict=Verdict.ISSUE), "re-draft") is None


@pytest.mark.parametrize(
    ("name", "before", "due"),
    [
        ("gated after a reset that kept a proof", GATED, True),
        ("tried already", _restate(GATED, restated=True), False),
        ("no proof kept", _restate(GATED, previous=None), False),
        ("not gated yet", GATED.with_work(evolved(GATED.work, fingerprint=None)), False),
    ],
)
def test_restate_comes_before_any_proof_search(name, before, due):
    assert (restate.ready(before, POLICY) is not None) is due, name
    if due:
        assert prove.ready(before, POLICY) is None  # the prover waits for Lean's answer


def _run(tmp_path, rules):
    author = Author(rules)
    events: list[dict] = []
    ctx = SimpleNamespace(
        verifier=author,
        settings=SimpleNamespace(lean_timeout_s=60),
        emit=lambda e: events.append(e.as_event()),
        ws=SimpleNamespace(audit_dir=lambda rid: tmp_path, rel=lambda p: p.name),
    )
    given = RestateInputs(action(ActionKind.RESTATE), PREVIOUS, NEW, LeanContext(header="H"), True)
    return restate.run(ctx, GATED, given), author, events


def test_an_equivalent_restatement_keeps_its_proof(tmp_path):
    rules = [when("apply h_src_faithful", ok()), when("have h_equiv", ok())]
    outcome, author, events = _run(tmp_path, rules)
    assert outcome.proof is not None
    assert outcome.proof.startswith("theorem t_previous (x y : ℝ)")  # the old proof, renamed
    assert "theorem t (a b : ℝ) (hab : a ≤ b)" in outcome.proof
    assert "exact h_equiv t_previous a b hab" in outcome.proof
    # the old theorem is in the context the ladder and the carried proof were checked on
    assert events[0]["kind"] == "restatement" and events[0]["outcome"] == "carried"
    after = restate.apply(GATED, outcome, POLICY)
    assert obligations_of(after.work)[0].status == "proved"
    assert obligations_of(after.work)[0].proof == outcome.proof and restate.state(after).restated


def test_a_restatement_lean_does_not_prove_equivalent_is_proved_again(tmp_path):
    outcome, _, events = _run(tmp_path, [when("h_src_faithful", error("no"))])
    assert outcome.proof is None and events[0]["outcome"] == "not_carried"
    after = restate.apply(GATED, outcome, POLICY)
    assert restate.state(after).restated and obligations_of(after.work)[0].status == "open"
    assert prove.ready(after, POLICY) is not None


def test_changed_definitions_are_never_carried(tmp_path):
    given = RestateInputs(action(ActionKind.RESTATE), PREVIOUS, NEW, LeanContext(header="H"), False)
    ctx = SimpleNamespace(
        verifier=Author([]),
        settings=SimpleNamespace(lean_timeout_s=60),
        emit=lambda e: None,
        ws=SimpleNamespace(audit_dir=lambda rid: tmp_path, rel=lambda p: p.name),
    )
    outcome = restate.run(ctx, GATED, given)
    assert outcome == RestateOutcome(action=given.action, proof=None, record="restatement.json")

"""The four fixtures of issue #15, replayed from their committed Lean answers."""

import json

import pytest

from paperlint.faithful.check import lean_attempts
from paperlint.faithful.recheck import Recheck, recheck
from paperlint.lean.replay import ReplayVerifier
from paperlint.records.faithfulness_brief import gate_brief
from tests.faithful import build_fixtures as fx

NAMES = sorted(fx.CASES)


def _load(name):
    folder = fx.FOLDER / name
    case = json.loads((folder / "case.json").read_text(encoding="utf-8"))
    evidence = fx.run_case(fx.CASES[name], ReplayVerifier(folder))
    return case, evidence


def test_fixtures_are_up_to_date():
    for name, files in fx.build().items():
        for file, text in files.items():
            assert (fx.FOLDER / name / file).read_text(encoding="utf-8") == text, (name, file)


@pytest.mark.parametrize("name", NAMES)
def test_answer_key(name):
    case, evidence = _load(name)
    key = case["answer_key"]
    assert evidence.equivalence.agreement.value == key["agreement"]
    assert evidence.probe.refuted is key["refuted"]
    assert [lint.rule.value for lint in evidence.lints] == key["lints"]
    if "failing" in key:
        assert [d.value for d in evidence.equivalence.failing] == key["failing"]
    if "rungs" in key:
        eq = evidence.equivalence
        assert {d.direction.value: d.rung.value for d in (eq.forward, eq.backward)} == key["rungs"]
    if key["refuted"]:
        assert evidence.probe.refutation.step.value == key["refutation_step"]
        assert evidence.probe.refutation.assignment == key["assignment"]
    if "second_refuted" in key:
        assert evidence.second_probe.refuted is key["second_refuted"]
    if "unneeded" in key:
        assert [c.name for c in evidence.minimal.unneeded] == key["unneeded"]
    every = evidence.equivalence.attempts() + evidence.probe.attempts
    assert all(a.replay for a in every)  # named as a replay, end to end


@pytest.mark.parametrize("name", NAMES)
def test_recorded_claims_recheck(name):
    _, evidence = _load(name)
    checks = recheck(ReplayVerifier(fx.FOLDER / name), evidence, timeout_s=60)
    assert checks and all(c.status is Recheck.CONFIRMED for c in checks)


def test_nat_subtraction_is_caught_before_any_proof_search():
    _, evidence = _load("nat-subtraction")
    texts = [a.candidate for a in evidence.probe.attempts]
    assert all("_refuted" in t or "_plausible" in t for t in texts)
    assert evidence.minimal is None  # nothing was proved
    brief = gate_brief(evidence)
    assert "Lean REFUTES the statement at m := 0, n := 1 (witness" in brief
    assert "nat-arithmetic" in brief and "DISAGREE" in brief


def test_disagreement_brief_shows_both_drafts_and_the_failing_direction():
    case, evidence = _load("lt-vs-le")
    brief = gate_brief(evidence)
    assert "no rung proved draft 2 ⇒ draft 1 (not a refutation)" in brief
    assert case["first"].split("\n")[0] in brief and case["second"].split("\n")[0] in brief
    assert "DOMAIN_CLARIFICATION" in brief


def test_unneeded_hypothesis_is_in_the_brief_and_costs_one_call():
    _, evidence = _load("unneeded-hypothesis")
    assert "`hx : 0 ≤ x` is not needed by the proof" in gate_brief(evidence)
    assert sum(1 for c in evidence.minimal.checks if c.attempt) == 1


def test_lean_attempts_per_fixture():
    counts = {name: lean_attempts(_load(name)[1]) for name in NAMES}
    assert counts == {
        "equivalent-drafts": 2 + 5,  # apply both ways; plausible + 4 negation tactics
        "lt-vs-le": 1 + 6 + 5 + 5,  # the drafts disagree: draft 2 is probed too
        "nat-subtraction": 12 + 2 + 5,  # 6 rungs both ways; witness; draft 2 probed
        "unneeded-hypothesis": 2 + 5 + 1,
    }


@pytest.mark.parametrize("name", NAMES)
def test_recorded_evidence_is_consistent(name):
    from paperlint.faithful.recheck import inconsistencies

    assert inconsistencies(_load(name)[1]) == []


def test_forged_claims_are_caught_without_lean():
    from paperlint.faithful.recheck import inconsistencies

    _, nat = _load("nat-subtraction")
    ref = nat.probe.refutation
    other = ref.declaration.replace("(m - n) ^ 2 =", "(m + n) ^ 2 =")
    forged = nat.model_copy(
        update={
            "probe": nat.probe.model_copy(
                update={"refutation": ref.model_copy(update={"declaration": other})}
            )
        }  # fmt: skip
    )
    assert inconsistencies(forged) == [
        "refutation: not a refutation of the recorded statement",
        "refutation: no accepted attempt with standard axioms",
    ]
    widened = nat.model_copy(
        update={
            "probe": nat.probe.model_copy(
                update={"refutation": ref.model_copy(update={"axioms": (*ref.axioms, "sorryAx")})}
            )
        }  # fmt: skip
    )
    assert inconsistencies(widened) == ["refutation: no accepted attempt with standard axioms"]

    _, eq = _load("lt-vs-le")
    claimed = eq.equivalence.backward.model_copy(
        update={"proved": True, "rung": eq.equivalence.forward.rung,
                "proof": eq.equivalence.forward.proof, "target": "sq_le_faithful_bwd"}
    )  # fmt: skip
    forged_eq = eq.model_copy(
        update={"equivalence": eq.equivalence.model_copy(update={"backward": claimed})}
    )
    assert inconsistencies(forged_eq) == [
        "second_implies_first: the proof is not of the recorded drafts",
        "second_implies_first: no accepted attempt with standard axioms",
    ]

    _, mini = _load("unneeded-hypothesis")
    [check] = mini.minimal.unneeded
    moved = check.model_copy(update={"name": "x"})
    forged_min = mini.model_copy(
        update={"minimal": mini.minimal.model_copy(update={"checks": (moved,)})}
    )
    assert inconsistencies(forged_min) == ["unneeded x: not the proof without exactly x"]

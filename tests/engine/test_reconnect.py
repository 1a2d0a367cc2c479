"""Reconnection (issue #14): when a result proved on a predecessor's clause is revisited, what
the engine composes in Lean, and the replayed example end to end (fixtures/reconnect: agent
answers hand-authored, Lean answers hand-written by scripts/author_lean_replay.py; no model and
no Lean were run)."""

import gc
import json
from pathlib import Path

import pytest

from paperlint.agents.outputs import DraftCondition, DraftOutput, FidelityFields
from paperlint.cli.root import run
from paperlint.domain import ConditionKind
from paperlint.engine.actions import Action, ActionKind
from paperlint.engine.plan import Policy, ready
from paperlint.engine.steps import reconnect
from paperlint.lean.compose import discharge_declaration
from paperlint.records.results import Evidence, ResultRecord, Results, Stage, Verdict
from paperlint.records.slots import (
    Audited,
    Discharge,
    Reconnection,
    Reconnections,
    fingerprint_of,
    obligations_of,
)
from paperlint.records.spend import Spend
from paperlint.records.work import FinalAudit
from tests.workstate import work_of

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "fixtures" / "reconnect"
POLICY = Policy(prover_ladder=("m",))
FIDELITY = FidelityFields(
    object_class="x",
    quantifier_order="x",
    parameter_domains="x",
    codomain="x",
    hypotheses="x",
    conclusion="x",
)

# --- the composed declaration --------------------------------------------------------------------


def test_the_discharge_drops_the_hypothesis_and_passes_every_other_binder_by_name():
    gated = (
        "theorem t {n : ℕ} [inst : NeZero n] [Foo] (x y : ℝ) (h_clause_a h_b : 0 ≤ x) :\n"
        "    x ≤ x + n := by\n  sorry"
    )
    composed = discharge_declaration(gated, name="t", new_name="t_r", by={"h_clause_a": "lem_a"})
    assert composed.text == (
        "theorem t_r {n : ℕ} [inst : NeZero n] [Foo] (x y : ℝ) (h_b : 0 ≤ x) : x ≤ x + n :=\n"
        "  t (n := n) (inst := inst) (x := x) (y := y) (h_b := h_b) (h_clause_a := lem_a)"
    )


def test_a_clause_that_is_no_named_hypothesis_composes_nothing():
    gated = "theorem t (x : ℝ) : (∀ y : ℝ, 0 ≤ y) → 0 ≤ x := by\n  sorry"
    composed = discharge_declaration(gated, name="t", new_name="t_r", by={"h_clause_a": "lem_a"})
    assert composed.text is None
    assert composed.why == "not a named hypothesis of `t`: h_clause_a"


def test_a_definition_is_not_reconnected():
    composed = discharge_declaration("def f : ℕ := 0", name="f", new_name="f_r", by={"h": "a"})
    assert composed.text is None


# --- when a result is revisited ------------------------------------------------------------------

CLAUSE = DraftCondition(
    name="h_clause_a",
    lean_type="∀ y : ℝ, 0 ≤ y ^ 2",
    kind=ConditionKind.CLAUSE_UNVERIFIED,
    result="lem:a",
)
FINAL = FinalAudit(file="f", clean=True, axioms=[], axioms_ok=True, record="r")


def _successor(**work) -> ResultRecord:
    draft = DraftOutput(
        lean_name="thm_b",
        statement="theorem thm_b (h_clause_a : ∀ y : ℝ, 0 ≤ y ^ 2) : True := by\n  sorry",
        fidelity=FIDELITY,
        conditions=[CLAUSE],
    )
    base = ResultRecord(id="thm:b", number="2", kind="theorem", stage=Stage.DONE).model_copy(
        update={"verdict": Verdict.VERIFIED_CONDITIONAL}
    )
    tried = Reconnections(tried=work.pop("reconnections", []))  # the reconnect step's slot
    shared = work_of(draft=draft, fingerprint="sha256:b", final=FINAL, **work)
    return base.with_work(shared.with_slot(tried))


def _predecessor(verdict: Verdict | None, fingerprint: str = "sha256:a") -> ResultRecord:
    evidence = Evidence(lean_name="lem_a", statement_fingerprint=fingerprint)
    return ResultRecord(
        id="lem:a", number="1", kind="lemma", stage=Stage.DONE, verdict=verdict, evidence=evidence
    )


def _results(pred: ResultRecord, succ: ResultRecord, *more: ResultRecord) -> Results:
    return Results(results=[pred, succ, *more])


DISCHARGE = Discharge(condition="h_clause_a", result="lem:a", by="lem_a", fingerprint="sha256:a")
TRIED = Reconnection(discharges=[DISCHARGE], name="thm_b_reconnected", accepted=False, record="r")


@pytest.mark.parametrize(
    ("pred_verdict", "due"),
    [
        (Verdict.VERIFIED_UNCONDITIONAL, True),
        (Verdict.VERIFIED_CONDITIONAL, False),  # its own conditions would be inherited: not here
        (Verdict.UNFINISHED, False),
        (Verdict.ISSUE, False),
        (None, False),
    ],
)
def test_a_clause_is_due_only_once_its_predecessor_is_verified_unconditionally(pred_verdict, due):
    action = reconnect.revisit(
        _successor(), _results(_predecessor(pred_verdict), _successor()), POLICY
    )
    assert (action == Action(kind=ActionKind.RECONNECT, result="thm:b")) is due


def test_a_reconnection_tried_for_these_predecessors_is_not_tried_again():
    tried = _successor(reconnections=[TRIED])
    pred = _predecessor(Verdict.VERIFIED_UNCONDITIONAL)
    assert reconnect.revisit(tried, _results(pred, tried), POLICY) is None
    # the predecessor's statement changed since (re-gated, revised): tried again
    changed = _predecessor(Verdict.VERIFIED_UNCONDITIONAL, fingerprint="sha256:new")
    assert reconnect.revisit(tried, _results(changed, tried), POLICY) is not None


def test_plan_revisits_a_settled_result_and_its_dependents_wait_for_it():
    pred, succ = _predecessor(Verdict.VERIFIED_UNCONDITIONAL), _successor()
    later = ResultRecord(id="cor:c", number="3", kind="corollary")
    order = ["lem:a", "thm:b", "cor:c"]
    deps = {"thm:b": ["lem:a"], "cor:c": ["thm:b", "lem:a"]}
    found = ready(_results(pred, succ, later), order, POLICY, Spend(), deps=deps)
    assert found == [Action(kind=ActionKind.RECONNECT, result="thm:b")]
    # without the dependency gate (the serial queue) it is the first action in the order
    serial = ready(_results(pred, succ, later), order, POLICY, Spend(), limit=1)
    assert serial == [Action(kind=ActionKind.RECONNECT, result="thm:b")]


# --- the replayed example -----------------------------------------------------------------------


def _events(work: Path) -> list[dict]:
    return [json.loads(line) for line in (work / "events.jsonl").read_text().splitlines()]


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    work = tmp_path_factory.mktemp("reconnect") / "ws"
    args = ["check", str(FIXTURE / "paper.tex"), "--replay", str(FIXTURE / "replay")]
    assert run([*args, "--workdir", str(work)]) == 0
    return work


def test_the_example_is_first_conditional_on_the_clause_then_reconnected(checked):
    verdicts = [
        (e["action"]["kind"], e["verdict"])
        for e in _events(checked)
        if e["type"] == "action_finished" and e["result"] == "thm:sq-add" and e["verdict"]
    ]
    assert verdicts == [
        ("audit", "verified_conditional"),  # on Lemma 1's clause: Lemma 1 was unfinished
        ("audit", "verified_conditional"),  # re-gated by the convergence review, proof kept
        ("reconnect", "verified_unconditional"),  # Lemma 1 verified: discharged in Lean
    ]
    lemma = [
        (e["action"]["kind"], e["verdict"], e["reason"])
        for e in _events(checked)
        if e["type"] == "action_finished" and e["result"] == "lem:sq" and e["verdict"]
    ]
    assert lemma == [
        ("audit", "unfinished", "audit_failed"),
        ("audit", "verified_unconditional", None),
    ]
    record = next(
        r
        for r in json.loads((checked / "results.json").read_text())["results"]
        if r["id"] == "thm:sq-add"
    )
    assert record["conditions"] == []
    assert any(
        n.startswith("reconnected: h_clause_lem_sq by lem_sq (lem:sq)") for n in record["notes"]
    )


def test_the_re_gate_kept_the_proof_instead_of_proving_again(checked):
    proved = [
        e["action"]["attempt"]
        for e in _events(checked)
        if e["type"] == "action_finished"
        and e["result"] == "thm:sq-add"
        and e["action"]["kind"] == "prove"
    ]
    gated = [
        e
        for e in _events(checked)
        if e["type"] == "action_finished"
        and e["result"] == "thm:sq-add"
        and e["action"]["kind"] == "gate"
    ]
    assert len(gated) == 2 and proved == [1]  # gated twice, proved once


def test_the_lean_evidence_of_the_discharge_is_in_the_workspace_and_the_report(checked):
    found = json.loads((checked / "audits" / "thm_sq-add" / "reconnect-1.json").read_text())
    assert found["accepted"] is True
    assert found["discharges"][0]["by"] == "lem_sq"
    module = (checked / found["file"]).read_text()
    assert module.index("theorem lem_sq (y : ℝ) : 0 ≤ y ^ 2") < module.index("theorem thm_sq_add")
    assert module.rstrip().endswith(
        "theorem thm_sq_add_reconnected (x : ℝ) : 0 < x ^ 2 + 1 :=\n"
        "  thm_sq_add (x := x) (h_clause_lem_sq := lem_sq)"
    )
    # judged by the trusted checker (issue #25); the file above is for reading, never built
    assert found["final_check"] is None
    run = json.loads((checked / found["checker"]).read_text())
    assert run["outcome"] == "accepted" and run["replay"] is True
    assert run["request"]["target"] == "thm_sq_add_reconnected"
    assert run["record"]["candidate"]["type_equal"] is True
    assert (
        run["record"]["axioms"] == found["axioms"] == ["propext", "Classical.choice", "Quot.sound"]
    )
    kinds = [
        e["kind"]
        for e in _events(checked)
        if e["type"] == "lean_check" and e["result"] == "thm:sq-add"
    ]
    assert "reconnect" in kinds
    report = (checked / "report" / "report.md").read_text()
    assert "Reconnection (a clause discharged in Lean):" in report
    assert "thm_sq_add (x := x) (h_clause_lem_sq := lem_sq)" in report
    assert 'class="reconnection"' in (checked / "report" / "report.html").read_text()


def test_the_reconnected_example_validates_clean(checked, capsys):
    capsys.readouterr()
    assert run(["validate", str(checked)]) == 0


def test_a_resume_of_the_finished_example_does_not_reconnect_again(checked):
    before = len(_events(checked))
    assert run(["resume", str(checked)]) == 0
    after = _events(checked)[before:]
    assert not [e for e in after if e["type"] in ("model_call", "lean_check")]


# --- a re-gate keeps a proved result's proof aside -----------------------------------------------


def test_a_regate_keeps_a_proved_results_proof_aside_and_a_redraft_does_not():
    from paperlint.records.rewind import rewind
    from paperlint.records.slots import KeptProof, gating
    from paperlint.records.work import Obligation

    # the gate step's own slot keeps it (issue #27: was `work.kept`, set by `regated`)
    proved = [Obligation(id="main", skeleton="sk", status="proved", proof="p", attempts=1)]
    done = _successor(obligations=proved)
    again = rewind(done, "re-gate")
    assert gating(again.work).kept == KeptProof(fingerprint="sha256:b", obligations=proved)
    assert obligations_of(again.work) == [] and fingerprint_of(again.work) is None
    assert gating(rewind(done, "re-draft").work).kept is None
    unproved = _successor(obligations=[Obligation(id="main", skeleton="sk", status="failed")])
    assert gating(rewind(unproved, "re-gate").work).kept is None


@pytest.mark.parametrize("action", ["re-draft", "re-gate", "re-prove"])
@pytest.mark.parametrize("revision", [True, False])
def test_no_reset_keeps_a_reconnection(action, revision):
    """The reconnect step's slot keeps nothing through any reset: the statement or its proof
    is done again, and the result is revisited once it is verified again."""
    from paperlint.records.rewind import rewind
    from paperlint.records.slots import reconnections
    from paperlint.records.work import Obligation

    proved = [Obligation(id="main", skeleton="sk", status="proved", proof="p", attempts=1)]
    accepted = evolve_reconnection(TRIED, accepted=True, declaration="theorem t : True := x")
    done = _successor(obligations=proved, reconnections=[TRIED, accepted])
    assert reconnections(done.work) == [TRIED, accepted]
    again = rewind(done, action, revision=revision)
    assert reconnections(again.work) == [] and "reconnect" not in again.work.slots


# --- a clause that is not the predecessor's statement --------------------------------------------


def test_a_clause_the_predecessor_does_not_prove_stays_conditional_with_leans_reason(tmp_path):
    """fixtures/reconnect with Theorem 2's clause changed to `∀ y, 0 < y ^ 2 + 1`, which is not
    Lemma 1's statement. Lean is the hand-written stand-in of scripts/author_lean_replay.py
    (no Lean here), told to reject the discharge with the type mismatch Lean would report."""
    import importlib.util

    from paperlint.agents.transcript import unstamped
    from paperlint.config import Config
    from paperlint.engine.check import CheckRequest, start_check

    spec = importlib.util.spec_from_file_location(
        "author_lean_replay", ROOT / "scripts" / "author_lean_replay.py"
    )
    assert spec is not None and spec.loader is not None
    author = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(author)

    replay = tmp_path / "replay"
    replay.mkdir()
    lines = (FIXTURE / "replay" / "transcript.jsonl").read_text(encoding="utf-8").splitlines()
    # A hand-made variant: its changed answers change later prompts, so its answers are
    # unstamped (served whatever their key is asked).
    lines = [json.dumps(row, ensure_ascii=False) for row in unstamped(map(json.loads, lines))]
    changed = [
        line.replace("∀ y : ℝ, 0 ≤ y ^ 2", "∀ y : ℝ, 0 < y ^ 2 + 1")
        if json.loads(line)["result"] == "thm:sq-add"
        else line
        for line in lines
    ]
    (replay / "transcript.jsonl").write_text("\n".join(changed) + "\n", encoding="utf-8")
    rules = json.loads((FIXTURE / "replay" / "lean-rules.json").read_text(encoding="utf-8"))
    mismatch = (
        "application type mismatch\n  thm_sq_add (h_clause_lem_sq := lem_sq)\nargument\n  lem_sq\n"
        "has type\n  ∀ (y : ℝ), 0 ≤ y ^ 2 : Prop\nbut is expected to have type\n"
        "  ∀ (y : ℝ), 0 < y ^ 2 + 1 : Prop"
    )
    rules["reject"] = {"(h_clause_lem_sq := lem_sq)": mismatch}
    verifier = author.AuthoringVerifier(replay / "lean.jsonl", rules)
    work = tmp_path / "ws"
    request = CheckRequest(
        paper=FIXTURE / "paper.tex",
        config=Config(),
        workdir=work,
        replay=replay,
        verifier=verifier,
        report=False,
    )
    start_check(request)
    record = next(
        r
        for r in json.loads((work / "results.json").read_text())["results"]
        if r["id"] == "thm:sq-add"
    )
    assert record["verdict"] == "verified_conditional"
    assert [c["name"] for c in record["conditions"]] == ["h_clause_lem_sq"]
    (note,) = [n for n in record["notes"] if n.startswith("reconnection not made")]
    assert "Lean rejected the discharge" in note and "application type mismatch" in note
    found = json.loads((work / "audits" / "thm_sq-add" / "reconnect-1.json").read_text())
    assert found["accepted"] is False and found["file"] is None
    assert not (work / "lean" / "Paper" / "Thm_sq_add_reconnect_1.lean").exists()
    assert run(["validate", str(work)]) == 0  # conditional on the clause, as the records say


def test_a_dependent_builds_on_the_reconnected_declaration_once_it_is_accepted():
    from paperlint.records.accepted import accepted_declarations
    from paperlint.records.work import Obligation

    proved = [Obligation(id="main", skeleton="sk", status="proved", proof="theorem thm_b …")]
    text = "theorem thm_b_reconnected : True :=\n  thm_b (h_clause_a := lem_a)"
    accepted = evolve_reconnection(TRIED, accepted=True, declaration=text)
    rejected = evolve_reconnection(TRIED, declaration="theorem thm_b_reconnected : False := x")
    assert accepted_declarations(_successor(obligations=proved)) == ["theorem thm_b …"]
    on = _successor(obligations=proved, reconnections=[accepted, rejected])
    assert accepted_declarations(on) == ["theorem thm_b …", text]


def evolve_reconnection(found: Reconnection, **changes) -> Reconnection:
    return found.model_copy(update=changes)


def test_status_why_says_why_a_clause_was_not_reconnected():
    from paperlint.engine.status import _why

    note = "reconnection not made: Lean rejected the discharge: application type mismatch"
    succ = _successor().model_copy(update={"notes": ["re-gated", note]})
    pred = _predecessor(Verdict.VERIFIED_UNCONDITIONAL)
    assert _why(succ, _results(pred, succ)) == [note]


def test_the_clauses_read_of_a_work_are_kept_for_that_work_object_only():
    """`plan` asks every settled result's clauses at every action (`reconnect._clauses`):
    they are kept per work object while it lives, and a changed work (always a copy) is read
    anew; an entry goes with its work, so the memo keeps no work alive."""
    pred = _predecessor(Verdict.VERIFIED_UNCONDITIONAL)
    succ = _successor()
    for _ in range(2):  # read, then kept
        assert reconnect.due(succ, _results(pred, succ)) == [DISCHARGE]
    assert reconnect._CLAUSES[id(succ.work)][0]() is succ.work
    unaudited = succ.with_work(succ.work.with_slot(Audited()))  # the final check cleared
    assert reconnect.due(unaudited, _results(pred, unaudited)) == []
    assert reconnect.due(succ, _results(pred, succ)) == [DISCHARGE]
    gone = id(unaudited.work)
    assert gone in reconnect._CLAUSES
    del unaudited
    gc.collect()
    assert gone not in reconnect._CLAUSES

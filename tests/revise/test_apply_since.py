from paperlint.agents.outputs import DraftOutput, FidelityFields, GateOutput
from paperlint.records.results import (
    Evidence,
    Issue,
    IssueLocation,
    ResultRecord,
    Results,
    Stage,
    Verdict,
)
from paperlint.records.revisions import compare_results
from paperlint.records.rewind import rewind
from paperlint.records.slots import (
    KeptProof,
    audited,
    draft_of,
    fingerprint_of,
    gating,
    obligations_of,
    suspicion_of,
)
from paperlint.records.work import FailedProof, FinalAudit, Obligation, ResultWork, Suspicion
from tests.workstate import work_of

FIELDS = ("object_class", "quantifier_order", "parameter_domains", "codomain", "hypotheses")
FIELDS += ("conclusion", "follow_on_claims")
DRAFT = DraftOutput(
    lean_name="t",
    statement="theorem t : True := by\n  sorry",
    fidelity=FidelityFields.model_validate(dict.fromkeys(FIELDS, "")),
)
GATE = GateOutput.model_validate(
    {"decision": "PASS", "fields": [{"field": f, "ok": True} for f in FIELDS], "reasons": []}
)


def done_record() -> ResultRecord:
    failure = FailedProof(attempt=1, model="m", file="f", feedback="no")
    work = work_of(
        draft=DRAFT,
        draft_rounds=1,
        gates=[GATE],
        fingerprint="fp",
        obligations=[
            Obligation(
                id="main", skeleton="sk", status="proved", proof="p", attempts=2, failures=[failure]
            )
        ],
        suspicion=Suspicion(obligation="main", reason="r"),
        final=FinalAudit(file="x.lean", clean=True, axioms=[], axioms_ok=True, record="r.json"),
    )
    evidence = Evidence(lean_name="t", statement_fingerprint="fp", gate="g.json", lean_file="x")
    return ResultRecord(
        id="lem:a",
        number="1",
        kind="lemma",
        stage=Stage.DONE,
        verdict=Verdict.VERIFIED_UNCONDITIONAL,
        evidence=evidence,
    ).with_work(work)


def test_reprove_keeps_the_gated_statement_and_reopens_the_obligations() -> None:
    new = rewind(done_record(), "re-prove")
    assert (new.stage, new.verdict) == (Stage.GATED, None)
    assert (
        draft_of(new.work) == DRAFT
        and gating(new.work).gates == [GATE]
        and fingerprint_of(new.work) == "fp"
    )
    assert obligations_of(new.work) == [Obligation(id="main", skeleton="sk")]
    assert suspicion_of(new.work) is None and audited(new.work).final is None
    assert new.evidence == Evidence(lean_name="t", statement_fingerprint="fp", gate="g.json")


def test_regate_keeps_the_draft_only() -> None:
    new = rewind(done_record(), "re-gate")
    assert (new.stage, new.verdict) == (Stage.DRAFTED, None)
    # the draft and its rounds; a proved result's proof is kept aside by the gate's slot
    # (issue #27: `rewind` asks every step's slot what it keeps)
    kept = KeptProof(fingerprint="fp", obligations=obligations_of(done_record().work))
    assert new.work == work_of(draft=DRAFT, draft_rounds=1, kept=kept)
    assert new.evidence == Evidence(lean_name="t")


def test_redraft_starts_over() -> None:
    new = rewind(done_record(), "re-draft")
    assert (new.stage, new.work, new.evidence) == (
        Stage.PENDING,
        ResultWork(),
        Evidence(lean_name="t"),
    )


def _issue(rid: str, cls: str = "ERROR") -> ResultRecord:
    issue = Issue.model_validate(
        {"class": cls, "side": "paper", "location": IssueLocation(file="p", line=1, quote="q")}
    )
    return ResultRecord(id=rid, number="1", kind="lemma", verdict=Verdict.ISSUE, issue=issue)


def _verified(rid: str) -> ResultRecord:
    return ResultRecord(id=rid, number="1", kind="lemma", verdict=Verdict.VERIFIED_UNCONDITIONAL)


def test_since_reports_fixed_introduced_and_changed_verdicts() -> None:
    before = Results(results=[_issue("a"), _verified("b"), _verified("c"), _issue("gone")])
    now = Results(results=[_verified("a2"), _issue("b"), _verified("c"), _issue("new")])
    got = compare_results(before, now, {"a": "a2", "b": "b", "c": "c"})
    assert [c["id"] for c in got["verdicts_changed"]] == ["a2", "b"]
    assert got["issues_fixed"] == [{"id": "a2", "class": "ERROR", "now": "verified_unconditional"}]
    assert [i["id"] for i in got["issues_introduced"]] == ["b", "new"]
    assert (got["added"], got["removed"]) == (["new"], ["gone"])

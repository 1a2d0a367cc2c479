"""validate and replay on a result's faithfulness record (#15): consistent claims pass, an
edited claim is a "faithfulness-inconsistent" finding, and replay re-checks each claim."""

from paperlint.lean.replay import ReplayVerifier
from paperlint.records.faithfulness import FILE
from paperlint.records.layout import safe_name
from paperlint.validate.context import build_context
from paperlint.validate.faithful_rules import rerun_claims
from paperlint.validate.load import load_snapshot
from tests.faithful import build_fixtures as fx
from tests.faithful.test_fixtures import _load
from tests.validate.conftest import rules

RESULT = "thm:inverse"


def _with_evidence(ws, evidence):
    folder = ws / "audits" / safe_name(RESULT)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / FILE).write_text(evidence.model_dump_json(by_alias=True), encoding="utf-8")
    return ws


def test_a_consistent_record_adds_no_finding(copy_of):
    _, evidence = _load("unneeded-hypothesis")
    ws = copy_of("proportions")
    before = rules(ws)
    _with_evidence(ws, evidence.model_copy(update={"result": RESULT}))
    assert rules(ws) == before and "faithfulness-inconsistent" not in before


def test_an_edited_claim_or_another_results_record_is_a_finding(copy_of):
    _, evidence = _load("nat-subtraction")
    ref = evidence.probe.refutation
    forged = ref.model_copy(update={"declaration": ref.declaration.replace("m - n", "m + n", 1)})
    edited = evidence.model_copy(
        update={"result": RESULT, "probe": evidence.probe.model_copy(update={"refutation": forged})}
    )
    ws = copy_of("proportions")
    assert "faithfulness-inconsistent" in rules(_with_evidence(ws, edited))
    assert "faithfulness-inconsistent" in rules(_with_evidence(ws, evidence))  # lem:square-diff


def test_replay_rechecks_every_claim(copy_of):
    _, evidence = _load("unneeded-hypothesis")
    ws = _with_evidence(copy_of("proportions"), evidence.model_copy(update={"result": RESULT}))
    snap = load_snapshot(ws)
    ctx = build_context(snap)
    [record] = [r for r in snap.records if r.id == RESULT]
    verifier = ReplayVerifier(fx.FOLDER / "unneeded-hypothesis")
    assert rerun_claims(ctx, record, verifier, "replay") == [
        ("first_implies_second", "confirmed", ""),
        ("second_implies_first", "confirmed", ""),
        ("unneeded hx", "confirmed", ""),
    ]
    unrecorded = ReplayVerifier(ws)  # no faithfulness answers there: never "confirmed"
    assert {s for _, s, _ in rerun_claims(ctx, record, unrecorded, "replay")} == {"not-run"}
    assert {s for _, s, _ in rerun_claims(ctx, record, None, "live")} == {"not-run"}

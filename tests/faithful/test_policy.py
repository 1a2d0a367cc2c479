import pytest

from paperlint.faithful.policy import GateRuling, Next, Reading, decide
from tests.faithful.test_fixtures import _load


@pytest.mark.parametrize(
    ("case", "ruling", "expected"),
    [
        ("equivalent-drafts", None, Next.PROCEED),
        ("equivalent-drafts", GateRuling(reading=Reading.SECOND), Next.PROCEED),
        ("lt-vs-le", GateRuling(reading=Reading.FIRST), Next.KEEP_FIRST),
        ("lt-vs-le", GateRuling(reading=Reading.SECOND), Next.USE_SECOND),
        ("lt-vs-le", GateRuling(reading=Reading.BOTH_DEFENSIBLE), Next.DOMAIN_CLARIFICATION),
        ("lt-vs-le", GateRuling(reading=Reading.NEITHER), Next.REDRAFT),
        ("lt-vs-le", None, Next.REDRAFT),  # no ruling is never a pass
        ("nat-subtraction", None, Next.REDRAFT),
        ("nat-subtraction", GateRuling(statement_faithful=False), Next.REDRAFT),
        ("nat-subtraction", GateRuling(statement_faithful=True), Next.ERROR_ISSUE),
        ("unneeded-hypothesis", None, Next.PROCEED),
    ],
)
def test_decision_table(case, ruling, expected):
    _, evidence = _load(case)
    assert decide(evidence, ruling).next is expected


def test_redraft_carries_the_witness_and_error_carries_the_counterexample():
    _, evidence = _load("nat-subtraction")
    redraft = decide(evidence, None)
    assert "m := 0, n := 1" in redraft.feedback and "sq_sub_refuted" in redraft.feedback
    error = decide(evidence, GateRuling(statement_faithful=True))
    assert error.counterexample == evidence.probe.refutation.declaration


def test_the_answer_key_reading_keeps_the_papers_draft():
    case, evidence = _load("lt-vs-le")
    ruling = GateRuling(reading=Reading(case["answer_key"]["paper_reading"]))
    assert decide(evidence, ruling).next is Next.KEEP_FIRST

"""docs/events.md is generated from the typed event records and must not drift from them."""

from pathlib import Path

import pytest

from paperlint.records.events import (
    ActionFinished,
    LegacyVerdict,
    parse_event,
    render_docs,
    verdict_of,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "events.md"


def test_events_doc_is_generated_from_the_records():
    assert DOC.read_text(encoding="utf-8") == render_docs(), (
        "docs/events.md is stale: run `python -m paperlint.records.events > docs/events.md`"
    )


def test_an_unknown_or_malformed_event_is_refused():
    with pytest.raises(ValueError):
        parse_event({"type": "verdict_maybe", "result": "x"})
    with pytest.raises(ValueError):
        parse_event({"type": "action_finished", "action": {"kind": "plan", "result": "x"}})


def test_the_verdict_an_event_logs():
    end = ActionFinished.model_validate(
        {
            "action": {"kind": "review_issue", "result": "thm:a"},
            "ok": True,
            "result": "thm:a",
            "stage": {"from": "proving", "to": "done"},
            "verdict": "issue",
            "class": "ERROR",
        }
    )
    assert verdict_of(end.as_event()) == ("thm:a", "issue", "ERROR")
    legacy = LegacyVerdict(result="thm:b", verdict="verified_conditional").as_event()
    assert verdict_of(legacy) == ("thm:b", "verified_conditional", None)
    no_change = {**end.as_event(), "verdict": None}
    assert verdict_of(no_change) is None
    assert verdict_of({"type": "stage", "result": "thm:a"}) is None

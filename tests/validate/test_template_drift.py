"""Template drift is a note in `validate` and the report, never a verdict change (#11)."""

import json

from paperlint.agents.prompts import template_hashes, template_sha256


def _age_one_answer(ws):
    """Mark one model answer as produced by an older prompt template (an older paperlint)."""
    lines = (ws / "events.jsonl").read_text().splitlines()
    events = [json.loads(line) for line in lines]
    calls = [e for e in events if e.get("type") == "model_call" and e.get("ok")]
    assert calls and all(e["template_sha256"] == template_sha256(e["task"]) for e in calls)
    calls[0]["template_sha256"] = "f" * 64
    (ws / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    return calls[0]["task"]


def test_validate_notes_template_drift_and_keeps_its_verdict(copy_of, capsys):
    from paperlint.cli.root import run

    ws = copy_of("proportions")
    clean = run(["validate", str(ws)])
    assert "template drift" not in capsys.readouterr().out
    task = _age_one_answer(ws)
    assert run(["validate", str(ws)]) == clean
    out = capsys.readouterr().out
    assert f"note: prompt template drift: 1 {task} answer(s)" in out and "ffffffffffff" in out
    assert run(["validate", str(ws), "--format", "json"]) == clean
    payload = json.loads(capsys.readouterr().out)
    assert payload["notes"] and payload["notes"][0].startswith("prompt template drift")


def test_report_notes_template_drift(copy_of):
    from paperlint.reports.load import load_workspace

    ws = copy_of("proportions")
    assert not any(
        "template drift" in n for n in load_workspace(ws, templates=template_hashes()).notes
    )
    _age_one_answer(ws)
    assert any("template drift" in n for n in load_workspace(ws, templates=template_hashes()).notes)

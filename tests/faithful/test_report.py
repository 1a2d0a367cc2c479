"""The report shows each result's faithfulness evidence, read from its audit record only."""

from pathlib import Path

from paperlint.records.faithfulness import FILE
from paperlint.records.layout import safe_name
from paperlint.reports.html import render_html
from paperlint.reports.load import load_workspace
from paperlint.reports.markdown import render_markdown
from tests.faithful.test_fixtures import _load
from tests.reports.workspace_factory import build_workspace


def test_report_shows_the_faithfulness_evidence(tmp_path: Path):
    workspace = build_workspace(tmp_path)
    _, evidence = _load("unneeded-hypothesis")
    folder = workspace / "audits" / safe_name("lem:var")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / FILE).write_text(evidence.model_dump_json(by_alias=True), encoding="utf-8")
    data = load_workspace(workspace)
    [view] = [v for v in data.views if v.id == "lem:var"]
    assert view.faithfulness == (
        "Two independent drafts are equivalent in Lean "
        "(draft 1 ⇒ draft 2 by apply; draft 2 ⇒ draft 1 by apply).",
        "Counterexample probe: No counterexample found in 5 Lean attempts (this proves nothing).",
        "Lints raised: none.",
        "Hypotheses the proof does not need: `hx : 0 ≤ x`.",
    )
    markdown = render_markdown(data)
    assert "Faithfulness evidence:" in markdown and "does not need" in markdown
    assert "Hypotheses the proof does not need: \\`hx : 0 ≤ x\\`." in markdown
    assert '<ul class="faithfulness"><li>Two independent drafts are equivalent' in render_html(data)
    others = [v for v in data.views if v.id != "lem:var"]
    assert all(v.faithfulness == () for v in others)  # no file, nothing claimed


def test_an_unreadable_evidence_file_claims_nothing(tmp_path: Path):
    workspace = build_workspace(tmp_path)
    folder = workspace / "audits" / safe_name("lem:var")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / FILE).write_text('{"schema": "paperlint.faithfulness/1", "result": 3}')
    [view] = [v for v in load_workspace(workspace).views if v.id == "lem:var"]
    assert view.faithfulness == ()

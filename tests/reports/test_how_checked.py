"""The report says how each verified verdict's statement was checked (issue #25): by the
trusted checker, by Lean's elaboration inside the checked file, or by its text only; the
summary counts each, in every format. A claim no file re-derives is shown as a claim."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from paperlint.reports.load import load_workspace
from paperlint.reports.markdown import render_markdown
from paperlint.reports.summary import checked_counts

ROOT = Path(__file__).resolve().parents[2]
V1 = ROOT / "fixtures" / "workspaces" / "v1-sample-variance"


def test_the_example_says_the_trusted_checker_compared_each_statement(example):
    data = load_workspace(example)
    assert checked_counts(data) == {"checker": 2, "elaboration": 0, "text": 0}
    text = render_markdown(data)
    assert text.count("How checked: the statement was compared by the trusted checker") == 2
    report = json.loads((example / "report" / "report.json").read_text(encoding="utf-8"))
    assert report["checked_counts"] == {"checker": 2, "elaboration": 0, "text": 0}
    checked = {r["id"]: r["checked"] for r in report["results"]}
    assert checked["lem:mean-max"] == "checker" and checked["prop:square"] is None
    html = (example / "report" / "report.html").read_text(encoding="utf-8")
    assert html.count('data-checked="checker"') == 3  # the summary row and two results
    sarif = json.loads((example / "report" / "report.sarif").read_text(encoding="utf-8"))
    assert sarif["runs"][0]["properties"]["checkedCounts"]["checker"] == 2


def test_a_workspace_from_before_the_checker_says_text_only(tmp_path):
    ws = tmp_path / "v1"
    shutil.copytree(V1, ws)
    data = load_workspace(ws)
    assert checked_counts(data) == {"checker": 0, "elaboration": 0, "text": 2}
    assert "How checked: the statement was compared by its text only." in render_markdown(data)


def test_a_checker_run_whose_record_fails_is_not_counted_as_checked(example, tmp_path):
    """`accepted` written over a record that shows a planted instance: re-judged, it fails."""
    ws = tmp_path / "ws"
    shutil.copytree(example, ws)
    path = ws / "audits" / "lem_mean-max" / "checker.json"
    run = json.loads(path.read_text(encoding="utf-8"))
    run["record"]["entries"].append({"module": run["record"]["candidate_module"], "count": 1,
                                     "extension": "Lean.Meta.instanceExtension"})  # fmt: skip
    path.write_text(json.dumps(run), encoding="utf-8")
    assert checked_counts(load_workspace(ws))["checker"] == 1


def test_a_convergence_review_that_flagged_nothing_is_shown_as_a_claim(tmp_path):
    from paperlint.learning.convergence import Combined, ConvergenceReview
    from paperlint.records.convergence import ConvergenceState, write_state

    ws = tmp_path / "v1"
    shutil.copytree(V1, ws)
    reviews = [ConvergenceReview(model=m, reviewed=["lem:mean-max"]) for m in ("a", "b")]
    combined = Combined(flags=[], flagged=[], by_both=[], regate=[])
    write_state(ws, ConvergenceState(status="done", reviews=reviews, combined=combined))
    lines = load_workspace(ws).convergence
    assert lines and "flagged nothing" in lines[0] and "no file re-derives it" in lines[0]


def test_the_convergence_flags_name_each_result_as_it_is_named_now(tmp_path):
    """The review names results by the ids they had when it ran; a revision since renumbered
    the unlabelled lemma it flagged (`lemma:2.2` is now `lemma:2.3`, and the inserted lemma
    took `lemma:2.2`) and removed another: the report names each as it is named now."""
    from paperlint.learning.convergence import Combined, ConvergenceReview
    from paperlint.records.convergence import ConvergenceState, write_state
    from paperlint.records.outputs import ConvergenceFlag

    ws = tmp_path / "v1"
    shutil.copytree(V1, ws)
    flags = [
        ConvergenceFlag(result="lemma:2.2", concern="statement", reason="a quantifier is lost"),
        ConvergenceFlag(result="lemma:9", concern="issue", reason="the gap is elsewhere"),
    ]
    reviews = [ConvergenceReview(model=m, reviewed=["lemma:2.2"], flags=flags) for m in "ab"]
    regate = ["lemma:2.2", "lemma:9", "thm:product"]
    combined = Combined(flags=flags, flagged=["lemma:2.2", "lemma:9"], by_both=[], regate=regate)
    write_state(ws, ConvergenceState(status="done", reviews=reviews, combined=combined))
    events = [
        {"type": "convergence_reviewed", "status": "done", "flagged": [], "regate": regate},
        {"type": "revision", "snapshot": "s", "renamed": {"lemma:2.2": "lemma:2.3"},
         "added": ["lemma:2.2"], "removed": ["lemma:9"], "reset": [], "renumbered": []},
    ]  # fmt: skip
    with (ws / "events.jsonl").open("a", encoding="utf-8") as log:
        log.writelines(json.dumps(e) + "\n" for e in events)
    assert load_workspace(ws).convergence == [
        "lemma:2.3 (reviewed as lemma:2.2) flagged (statement): a quantifier is lost",
        "lemma:9 (no longer in the paper) flagged (issue): the gap is elsewhere",
        "Gated again: lemma:2.3 (reviewed as lemma:2.2), lemma:9 (no longer in the paper), "
        "thm:product; nothing else changed.",
    ]

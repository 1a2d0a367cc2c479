"""Issue #19, replayed: the final convergence review catches a statement the gate passed (the
fixture's answer key says its first draft is unfaithful) and gates again only it and its
dependents. Agent and Lean answers are hand-written (fixtures/convergence/README.md)."""

import json
from pathlib import Path
from types import SimpleNamespace

from paperlint.cli.root import run
from paperlint.engine import converge
from paperlint.records import convergence
from paperlint.records.convergence import Combined
from paperlint.records.results import Results

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "fixtures" / "convergence"


def _events(work: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (work / "events.jsonl").read_text().splitlines()]


def _finished(work: Path, result: str) -> list[tuple[str, int]]:
    return [
        (e["action"]["kind"], e["action"]["attempt"])  # type: ignore[index]
        for e in _events(work)
        if e["type"] == "action_finished" and e["result"] == result
    ]


def _check(work: Path) -> int:
    args = ["check", str(FIXTURE / "paper.tex"), "--replay", str(FIXTURE / "replay")]
    return run([*args, "--workdir", str(work), "--fresh"])


def test_the_review_regates_only_the_flagged_result_and_its_dependents(tmp_path, capsys):
    work = tmp_path / "ws"
    assert _check(work) == 0
    key = json.loads((FIXTURE / "answer-key.json").read_text())
    results = json.loads((work / "results.json").read_text())["results"]
    assert {r["id"]: r["verdict"] for r in results} == {k: v["verdict"] for k, v in key.items()}
    state = convergence.read_state(work)
    assert state is not None and state.status == "done" and state.applied
    assert state.combined is not None and state.combined.flagged == ["lem:sq"]
    assert state.regate == ["lem:sq", "thm:sq-add"]
    # lem:sq was re-drafted with the flag and proved again; thm:sq-add gated and proved again;
    # lem:max was never touched after its first pass.
    assert ("draft", 2) in _finished(work, "lem:sq")
    assert _finished(work, "thm:sq-add").count(("gate", 1)) == 2
    assert [k for k, _ in _finished(work, "lem:max")] == ["plan", "draft", "gate", "prove", "audit"]
    lean = (work / "lean" / "Paper" / "Lem_sq.lean").read_text()
    assert "theorem lem_sq (x : ℝ) : 0 ≤ x ^ 2 := by" in lean and "0 < x" not in lean
    # The first pass's evidence is kept: the re-gate numbers its attempts from 1 again.
    kept = work / "snapshots" / "convergence"
    assert (kept / "results.json").is_file()
    assert "(hx : 0 < x)" in (kept / "audits" / "lem_sq" / "attempts" / "main-1.lean").read_text()
    assert (
        "(hx : 0 < x)" not in (work / "audits" / "lem_sq" / "attempts" / "main-2.lean").read_text()
    )
    (event,) = [e for e in _events(work) if e["type"] == "convergence_reviewed"]
    assert event["flagged"] == ["lem:sq"] and event["regate"] == ["lem:sq", "thm:sq-add"]
    report = (work / "report" / "report.md").read_text()
    assert "Gated again: lem:sq, thm:sq-add; nothing else changed." in report
    capsys.readouterr()
    assert run(["validate", str(work)]) == 0
    # A resume of the finished check asks nobody again: the review is recorded as applied.
    calls = sum(e["type"] == "model_call" for e in _events(work))
    assert run(["resume", str(work)]) == 0
    assert sum(e["type"] == "model_call" for e in _events(work)) == calls


def test_a_crash_after_the_rewind_is_not_rewound_twice(tmp_path):
    work = tmp_path / "ws"
    assert _check(work) == 0
    state = convergence.read_state(work)
    assert state is not None
    results = Results.model_validate_json((work / "results.json").read_text())
    again = convergence.rewound(results, state)
    assert convergence.was_applied(again, state)
    notes = {r.id: r.notes for r in results.results}
    assert notes["lem:sq"] == [convergence.MARK] and notes["lem:max"] == []


def test_a_replay_without_review_answers_changes_no_verdict(tmp_path):
    fixture = ROOT / "fixtures" / "sample-variance"
    work = tmp_path / "ws"
    args = ["check", str(fixture / "paper.tex"), "--replay", str(fixture / "replay")]
    assert run([*args, "--workdir", str(work)]) == 1
    state = convergence.read_state(work)
    assert state is not None and state.status == "not_run"
    assert "no entry for task=convergence" in str(state.reason)
    assert "did not run" in (work / "report" / "report.md").read_text()


def test_the_two_reviewers_must_be_different_models():
    ctx = SimpleNamespace(settings=SimpleNamespace(models={"gate": "m", "auditor": "m"}))
    state = converge.review(ctx, Results(paper="p", results=[]), [], lambda a, b: Combined())  # type: ignore[arg-type]
    assert state.status == "not_run" and "differ" in str(state.reason)

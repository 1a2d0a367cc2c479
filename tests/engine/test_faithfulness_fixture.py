"""fixtures/faithfulness through the engine (`check --replay`, issue #15): what each result's
faithfulness checks showed, read from the workspace an uninterrupted run leaves.

The answer key (`answer-key.json`, checked by test_examples.py with every other fixture) was
written before the run; the Lean answers are HAND-WRITTEN (`replay/author_lean.py`) and the
model answers hand-authored (`replay/author.py`): both scripts are re-run here and must give
the committed files byte for byte.
"""

import importlib.util
import json
import runpy
import sys
from pathlib import Path

import pytest

from tests.engine.conftest import ROOT, answers_of, example, reference_run

NAME = "faithfulness"
FIXTURE = example(NAME)


@pytest.fixture(scope="module")
def ws() -> Path:
    return reference_run(NAME)[0]


def _json(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))


def _events(ws: Path) -> list[dict]:
    return [json.loads(line) for line in (ws / "events.jsonl").read_text().splitlines()]


def _record(ws: Path, rid: str) -> dict:
    return next(r for r in _json(ws / "results.json")["results"] if r["id"] == rid)


def test_the_lean_answers_are_the_authoring_script_s(tmp_path):
    spec = importlib.util.spec_from_file_location("author_lean", FIXTURE / "replay/author_lean.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.build(tmp_path / "lean.jsonl")
    written = (tmp_path / "lean.jsonl").read_text(encoding="utf-8")
    assert written == (FIXTURE / "replay/lean.jsonl").read_text(encoding="utf-8")
    assert all("hand-written" in json.loads(line)["note"] for line in written.splitlines())


def test_the_transcript_is_the_authoring_script_s(monkeypatch):
    sys.path.insert(0, str(ROOT / "scripts"))
    import fixture_author

    written: list[str] = []

    def capture(self, path):
        written.append("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in self.lines))

    monkeypatch.setattr(fixture_author.Transcript, "write", capture)
    runpy.run_path(str(FIXTURE / "replay/author.py"))
    recorded = (FIXTURE / "replay/transcript.jsonl").read_text(encoding="utf-8")
    assert [answers_of(text) for text in written] == [answers_of(recorded)]


def test_two_drafts_proved_equivalent_are_the_gated_statement_s_evidence(ws):
    evidence = _json(ws / "audits/lem_midpoint/faithfulness.json")
    eq = evidence["equivalence"]
    assert eq["agreement"] == "equivalent"
    assert (eq["forward"]["rung"], eq["backward"]["rung"]) == ("apply", "apply")
    assert "(a b : ℝ) (hab : a ≤ b)" in eq["second"]  # the independent draft, renamed
    gate = _json(ws / "audits/lem_midpoint/gate-1.json")
    assert gate["faithfulness"]["decision"]["next"] == "proceed"
    assert _record(ws, "lem:midpoint")["verdict"] == "verified_unconditional"


def test_drafts_that_differ_go_to_the_gate_which_picks_the_paper_s_le(ws):
    folder = ws / "audits/lem_square"
    eq = _json(folder / "faithfulness-1.json")["equivalence"]
    assert eq["agreement"] == "second_implies_first_only"
    assert "(h1 : x < 1)" in eq["first"] and "(h1 : x ≤ 1)" in eq["second"]
    gate = _json(folder / "gate-1.json")
    assert gate["review"]["ruling"]["reading"] == "second"
    assert gate["faithfulness"]["decision"]["next"] == "use_second"
    assert gate["faithfulness"]["gated_draft"] == "second"
    assert "(h1 : x ≤ 1)" in gate["statement"]  # the paper's ≤ is what was gated and proved
    record = _record(ws, "lem:square")
    assert record["verdict"] == "verified_unconditional"
    proved = (ws / record["evidence"]["lean_file"]).read_text(encoding="utf-8")
    assert "(h1 : x ≤ 1) : x ^ 2 ≤ x" in proved and "x < 1" not in proved
    # the gate's prompt held both drafts and the direction that fails
    brief = "The two drafts DISAGREE: no rung proved draft 1 ⇒ draft 2"
    from paperlint.records.faithfulness import read_evidence
    from paperlint.records.faithfulness_brief import gate_brief

    shown = gate_brief(read_evidence(folder / "faithfulness-1.json"))
    assert brief in shown and "(h1 : x < 1)" in shown and "(h1 : x ≤ 1)" in shown


def test_nat_subtraction_is_refuted_before_any_proof_search(ws):
    folder = ws / "audits/lem_square-diff"
    first = _json(folder / "faithfulness-1.json")
    refutation = first["probe"]["refutation"]
    assert refutation["assignment"] == {"m": "0", "n": "1"}
    assert refutation["axioms"] == ["propext", "Classical.choice", "Quot.sound"]
    assert "∀ (m n : ℕ)" in refutation["declaration"]
    assert [lint["rule"] for lint in first["lints"]] == ["nat-arithmetic"]
    assert _json(folder / "gate-1.json")["faithfulness"]["decision"]["next"] == "redraft"
    redraft = _json(folder / "draft-2.json")["statement"]
    assert "(a b : ℤ)" in redraft
    # no proof search for the ℕ statement: the first prove action follows the second gate
    kinds = [
        (e["action"]["kind"], e["action"]["attempt"])
        for e in _events(ws)
        if e["type"] == "action_started" and e["action"]["result"] == "lem:square-diff"
    ]
    assert kinds.index(("gate", 2)) < kinds.index(("prove", 1))
    assert [k for k in kinds if k[0] == "prove"] == [("prove", 1)]
    assert _record(ws, "lem:square-diff")["verdict"] == "verified_unconditional"


def test_an_unneeded_hypothesis_is_reported_after_proof_never_dropped(ws):
    record = _record(ws, "lem:positive")
    assert record["verdict"] == "verified_unconditional"
    assert [n for n in record["notes"] if "`hx : 0 ≤ x`" in n]
    minimal = _json(ws / "audits/lem_positive/faithfulness.json")["minimal"]
    assert [(c["name"], c["status"]) for c in minimal["checks"]] == [("hx", "unneeded")]
    proved = (ws / record["evidence"]["lean_file"]).read_text(encoding="utf-8")
    assert "(hx : 0 ≤ x)" in proved  # the verified statement keeps it
    # hypotheses the proof needs are not reported
    needed = _json(ws / "audits/lem_square/faithfulness.json")["minimal"]["checks"]
    assert {c["status"] for c in needed} == {"needed"} and not _record(ws, "lem:square")["notes"]


def test_a_refuted_statement_the_gate_holds_faithful_is_an_error_with_the_probe_s_witness(ws):
    record = _record(ws, "lem:succ-sq")
    assert (record["verdict"], record["issue"]["class"]) == ("issue", "ERROR")
    gate = _json(ws / "audits/lem_succ-sq/gate-1.json")
    assert gate["review"]["ruling"]["statement_faithful"] is True
    assert gate["faithfulness"]["decision"]["next"] == "error_issue"
    compiled = gate["faithfulness"]["counterexample"]
    assert compiled["accepted"] and compiled["axioms_ok"]
    assert record["issue"]["evidence"]["counterexample"] == compiled["file"]
    text = (ws / compiled["file"]).read_text(encoding="utf-8")
    assert "theorem lem_succ_sq_counterexample : ¬" in text and "h_cex (n := 0)" in text
    checker = _json(ws / "audits/lem_succ-sq/issue.json")
    assert checker["counterexample"] is None  # the checker wrote none: the probe's is kept


def test_at_most_one_extra_drafter_call_per_result(ws):
    calls = [e for e in _events(ws) if e["type"] == "model_call" and e["role"] == "drafter"]
    second = [(e["result"], e["attempt"]) for e in calls if e["task"] == "second_drafter"]
    results = [r["id"] for r in _json(ws / "results.json")["results"] if r["verdict_bearing"]]
    assert sorted(second) == sorted((rid, 1) for rid in results)


def test_the_report_shows_each_result_s_faithfulness_evidence(ws, tmp_path):
    from tests import forkserver

    out = tmp_path / "report.md"
    got = forkserver.server().run(["report", str(ws), "--format", "md", "-o", str(out)], {})
    assert got.code == 0, got.output
    text = out.read_text(encoding="utf-8")
    assert "Two independent drafts are equivalent in Lean" in text
    assert "Hypotheses the proof does not need: \\`hx : 0 ≤ x\\`" in text  # md-escaped
    assert "Lean REFUTES the statement at n := 0" in text
    assert "Gate ruling: draft 2 is the paper's reading" in text
    assert "Round 1 probe: Lean REFUTES the statement at m := 0, n := 1" in text
    assert "Lint answered by the gate: nat-arithmetic" in text


def test_validate_and_the_lean_replay_recheck_the_recorded_faithfulness_claims(ws):
    from tests import forkserver

    validated = forkserver.server().run(["validate", str(ws)], {})
    assert validated.code == 0, validated.output
    replayed = forkserver.server().run(
        ["replay", str(ws), "--lean-replay", str(FIXTURE / "replay"), "--format", "json"], {}
    )
    assert replayed.code in (0, 1), replayed.output
    report = json.loads(replayed.output[replayed.output.index("{") :])
    reruns = [
        lean
        for result in report["results"]
        for lean in result["lean"]
        if lean["file"].endswith("faithfulness.json")
    ]
    assert len(reruns) == 11 and {r["status"] for r in reruns} == {"confirmed"}


def test_until_gated_with_double_drafting_stops_at_gated(tmp_path):
    """`--until` is defined by stage: the second draft (a step the old list of allowed action
    kinds did not name) runs, the gate runs, and every result waits at `gated`, no proof."""
    from paperlint.cli.root import run

    workdir = tmp_path / "ws"
    argv = ["check", str(FIXTURE / "paper.tex"), "--replay", str(FIXTURE / "replay")]
    argv += ["--config", str(FIXTURE / "paperlint.toml"), "--workdir", str(workdir)]
    assert run([*argv, "--until", "gated"]) == 4
    records = _json(workdir / "results.json")["results"]
    bearing = [r for r in records if r["verdict_bearing"]]
    assert bearing and {r["stage"] for r in bearing} <= {"gated", "done"}
    assert any(r["stage"] == "gated" for r in bearing)
    kinds = {e["action"]["kind"] for e in _events(workdir) if e["type"] == "action_started"}
    assert "second_draft" in kinds and "gate" in kinds and "prove" not in kinds

"""The five tools over the real WarmVerifier with a SIMULATED REPL (tests/prover/simrepl.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperlint.lean.extraction import read_extraction
from paperlint.lean.messages import axiom_query
from paperlint.lean.verifier import LeanContext
from paperlint.prover.index import DeclIndex
from paperlint.prover.tools import MAX_CHARS, Workbench, bounded
from tests.prover.simrepl import HEADER, SimulatedRepl, axioms_ok, checks, msg, warm

ROOT = Path(__file__).resolve().parents[2]
CTX = LeanContext(header=HEADER)
TARGET = "mean_le_max"
GOOD = "theorem mean_le_max (a b : ℝ) : a ≤ max a b := le_max_left a b"
BAD = "theorem mean_le_max (a b : ℝ) : a ≤ max a b := by\n  intro h\n  linarith"
GOAL = "a b : ℝ\n⊢ a ≤ max a b"


@pytest.fixture(scope="module")
def index() -> DeclIndex:
    return DeclIndex(read_extraction(ROOT / "fixtures" / "decl_index" / "extract.jsonl"))


def bench(tmp_path: Path, repl: SimulatedRepl, index: DeclIndex | None = None, **kw) -> Workbench:
    verifier = warm(tmp_path, repl)
    return Workbench(
        verifier=verifier, probe=verifier, context=CTX, target=TARGET, index=index, **kw
    )


def test_check_accepts_with_the_full_rule(tmp_path: Path) -> None:
    repl = SimulatedRepl()
    repl.script(GOOD, {})
    repl.script(axiom_query([TARGET]), axioms_ok(TARGET))
    result = bench(tmp_path, repl).check(GOOD)
    assert result.accepted and "accepted" in result.text and "propext" in result.text


def test_check_without_the_target_is_not_accepted(tmp_path: Path) -> None:
    other = "theorem other (a b : ℝ) : a ≤ max a b := le_max_left a b"
    repl = SimulatedRepl()
    repl.script(other, {})
    repl.script(axiom_query([TARGET]), {"messages": [msg(1, 15, "unknown constant 'mean_le_max'")]})
    result = bench(tmp_path, repl).check(other)
    assert not result.accepted and "target_not_found" in result.text


def test_a_failure_shows_the_goal_before_the_failing_tactic(tmp_path: Path) -> None:
    error = msg(3, 2, "linarith failed to find a contradiction\na b : ℝ\n⊢ False", end=(3, 10))
    repl = SimulatedRepl()
    repl.script(BAD, {"messages": [msg(2, 2, "no goals to introduce", end=(2, 9)), error]})
    tactics = [
        {
            "tactic": "intro h",
            "goals": "a b : ℝ\n⊢ a ≤ max a b",
            "pos": {"line": 2, "column": 2},
            "endPos": {"line": 2, "column": 9},
            "usedConstants": [],
        },
        {
            "tactic": "linarith",
            "goals": "a b : ℝ\nh : ?\n⊢ a ≤ max a b",
            "pos": {"line": 3, "column": 2},
            "endPos": {"line": 3, "column": 10},
            "usedConstants": [],
        },
    ]
    repl.script(
        BAD,
        {"messages": [msg(2, 2, "no goals to introduce", end=(2, 9)), error], "tactics": tactics},
        all_tactics=True,
    )
    result = bench(tmp_path, repl).check(BAD)
    assert not result.accepted
    lines = result.text.splitlines()
    intro = lines.index("  intro h")
    assert "before `intro h`" in "\n".join(lines[:intro])
    linarith = lines.index("  linarith")
    assert any("before `linarith`" in line for line in lines[intro:linarith])
    assert (BAD, True) in repl.calls


def test_an_identical_candidate_is_refused_before_lean(tmp_path: Path) -> None:
    repl = SimulatedRepl()
    repl.script(BAD, {"messages": [msg(2, 2, "oops")]})
    wb = bench(tmp_path, repl)
    wb.check(BAD)
    calls = len(repl.calls)
    again = wb.check(BAD.replace("\n", "\n   "))  # whitespace differs only
    assert "identical to check #1" in again.text and len(repl.calls) == calls


def test_goals_at_every_sorry_and_hole(tmp_path: Path) -> None:
    partial = "theorem t (a b : ℝ) : a ≤ max a b ∧ True := by\n  refine ⟨?_, ?_⟩\n  all_goals sorry"
    sent = partial.replace("?_", "sorry")
    repl = SimulatedRepl()
    repl.script(
        sent,
        {
            "sorries": [
                {"pos": {"line": 2, "column": 10}, "goal": "a b : ℝ\n⊢ a ≤ max a b"},
                {"pos": {"line": 2, "column": 17}, "goal": "a b : ℝ\n⊢ True"},
            ]
        },
    )
    result = bench(tmp_path, repl).goals(partial)
    assert result.text.startswith("goal 1 (line 2):\na b : ℝ\n⊢ a ≤ max a b")
    assert "goal 2 (line 2)" in result.text


def test_search_hides_the_target_and_drops_what_lean_does_not_know(tmp_path: Path, index) -> None:
    query = "max of two reals is at least the left one"
    hits = index.search(query, limit=8, hidden=frozenset({TARGET, "le_max_left"}))
    names = [h.name for h in hits]
    repl = SimulatedRepl()
    answer = [(n, None if n == names[1] else f"sig of {n}") for n in names]
    repl.script("\n".join(f"#check @{n}" for n in names), checks(*answer))
    wb = bench(tmp_path, repl, index, hidden=frozenset({"le_max_left"}))
    result = wb.search(query)
    assert "le_max_left" not in result.names and names[1] not in result.names
    assert result.names[0] == names[0] and f"{names[0]} : sig of {names[0]}" in result.text


def test_search_with_lean_unavailable_returns_nothing_unconfirmed(tmp_path: Path, index) -> None:
    result = bench(tmp_path, SimulatedRepl(), index).search("exponential is positive")
    assert result.names == () and "no declaration found" in result.text


def test_library_lists_lean_suggestions(tmp_path: Path) -> None:
    statement = "example (a b : ℝ) : a ≤ max a b := by\n  "
    repl = SimulatedRepl()
    repl.script(
        statement + "exact?", {"messages": [msg(2, 2, "Try this: exact le_max_left a b", "info")]}
    )
    repl.script(
        statement + "apply?",
        {"messages": [msg(2, 2, "Try this: refine le_max_of_le_left ?_", "info")]},
    )
    repl.script(
        statement + "rw?",
        {"messages": [msg(2, 2, "Could not find any lemmas which can rewrite the goal")]},
    )
    result = bench(tmp_path, repl).library(GOAL)
    assert result.text.splitlines() == [
        "exact?: exact le_max_left a b",
        "apply?: refine le_max_of_le_left ?_",
        "rw?: no suggestion",
    ]


def test_try_reports_each_tactic(tmp_path: Path) -> None:
    statement = "example (a b : ℝ) : a ≤ max a b := by\n  "
    repl = SimulatedRepl()
    repl.script(statement + "simp", {})
    repl.script(statement + "linarith", {"messages": [msg(2, 2, "linarith failed")]})
    result = bench(tmp_path, repl).try_tactics(["simp", "linarith", "omega"], GOAL)
    assert result.text.splitlines()[:2] == [
        "simp: closes the goal",
        "linarith: fails: linarith failed",
    ]
    assert result.text.splitlines()[2].startswith("omega: fails")


def test_refused_constructs_never_reach_lean(tmp_path: Path) -> None:
    from paperlint.lean import guard

    cheat = "theorem mean_le_max (a b : ℝ) : a ≤ max a b := by native_decide"
    if not guard.refusals(cheat):
        pytest.skip("the hygiene scan does not refuse native_decide in this tree")
    repl = SimulatedRepl()
    wb = bench(tmp_path, repl)
    assert "refused" in wb.check(cheat).text
    assert "refused" in wb.try_tactics(["native_decide"], GOAL).text
    assert all("native_decide" not in cmd for cmd, _ in repl.calls)


def test_bad_arguments_are_an_answer(tmp_path: Path) -> None:
    wb = bench(tmp_path, SimulatedRepl())
    assert not wb.run("search", {"query": ""}).ok
    assert not wb.run("nope", {}).ok
    assert not wb.run("try", {"tactics": [], "goal": "⊢ True"}).ok


def test_outputs_are_bounded() -> None:
    assert len(bounded("x" * 10 * MAX_CHARS)) <= MAX_CHARS


def test_a_changed_statement_is_refused_before_lean(tmp_path: Path) -> None:
    skeleton = "theorem mean_le_max (a b : ℝ) : a ≤ max a b := by\n  sorry"
    weaker = "theorem mean_le_max (a b : ℝ) (h : b ≤ a) : a ≤ max a b := le_max_left a b"
    repl = SimulatedRepl()
    wb = bench(tmp_path, repl, skeleton=skeleton)
    result = wb.check(weaker)
    assert "statement of mean_le_max was changed" in result.text and not result.accepted
    assert "exactly one declaration" in wb.check("theorem other : True := trivial").text
    assert all(cmd != weaker for cmd, _ in repl.calls)
    repl.script(GOOD, {})
    repl.script(axiom_query([TARGET]), axioms_ok(TARGET))
    assert wb.check(GOOD).accepted  # the gated statement with a proof passes


def test_the_recorded_probe_refuses_what_the_live_one_refuses(tmp_path: Path) -> None:
    from paperlint.lean.replay import LeanRecorder, ReplayVerifier

    cheat = "example : True := by native_decide"
    recorder = LeanRecorder(tmp_path, toolchain=None, mathlib_rev=None)
    exchange = {"kind": "command", "context": CTX, "text": cheat, "response": {"env": 1}}
    recorder.write(exchange)
    probe = ReplayVerifier(tmp_path)
    answer = probe.command(CTX, cheat, timeout_s=1)
    assert not isinstance(answer, dict) and answer.code == "refused"
    assert probe.command(CTX, "#check @foo", timeout_s=1).code == "no_recording"

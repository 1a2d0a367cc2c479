"""The automation ladder over the real WarmVerifier and a SIMULATED REPL (simrepl.py)."""

from __future__ import annotations

from pathlib import Path

from paperlint.lean.messages import axiom_query
from paperlint.lean.verifier import LeanContext, Outcome
from paperlint.prover.automation import LADDER, plan, run_ladder
from tests.prover.simrepl import HEADER, SimulatedRepl, axioms_ok, msg, warm

CTX = LeanContext(header=HEADER)
SKELETON = "theorem sq_add_one_pos (x : ℝ) : 0 < x ^ 2 + 1 := by\n  sorry"
STATEMENT = "theorem sq_add_one_pos (x : ℝ) : 0 < x ^ 2 + 1"


def test_plan_keeps_the_gated_statement_and_follows_the_ladder() -> None:
    rungs = plan(SKELETON)
    assert [r.tactic for r in rungs] == list(LADDER)
    assert rungs[0].candidate == f"{STATEMENT} := by\n  grind"
    assert all(r.candidate.startswith(STATEMENT + " := by\n  ") for r in rungs)


def _script_fail(repl: SimulatedRepl, tactic: str) -> None:
    repl.script(f"{STATEMENT} := by\n  {tactic}", {"messages": [msg(2, 2, f"{tactic} failed")]})


def test_the_first_accepted_rung_closes_the_obligation(tmp_path: Path) -> None:
    repl = SimulatedRepl()
    for tactic in LADDER[:6]:
        _script_fail(repl, tactic)
    repl.script(f"{STATEMENT} := by\n  positivity", {})
    repl.script(axiom_query(["sq_add_one_pos"]), axioms_ok("sq_add_one_pos"))
    outcome = run_ladder(warm(tmp_path, repl), CTX, SKELETON, "sq_add_one_pos")
    assert outcome.closed and outcome.closed_by == "positivity"
    assert len(outcome.tried) == 7 and outcome.summary() == "closed by automation: `positivity`"
    assert not any("norm_num" in cmd for cmd, _ in repl.calls)  # stopped at the first success


def test_a_timeout_moves_on_and_nothing_closes(tmp_path: Path) -> None:
    repl = SimulatedRepl()
    repl.script(f"{STATEMENT} := by\n  grind", TimeoutError("10 s"))
    for tactic in LADDER[1:]:
        _script_fail(repl, tactic)
    outcome = run_ladder(warm(tmp_path, repl), CTX, SKELETON, "sq_add_one_pos")
    assert not outcome.closed and len(outcome.tried) == len(LADDER)
    assert outcome.tried[0].outcome is Outcome.TIMEOUT
    assert outcome.summary().startswith("automation tried and failed: `grind` (timeout)")


def test_lean_unavailable_stops_the_ladder(tmp_path: Path) -> None:
    repl = SimulatedRepl()
    repl.script(f"{STATEMENT} := by\n  grind", ConnectionAbortedError("dead"))
    outcome = run_ladder(warm(tmp_path, repl), CTX, SKELETON, "sq_add_one_pos")
    assert not outcome.closed and len(outcome.tried) == 1 and outcome.stopped


def test_the_statement_is_cut_at_its_top_level_assign_not_in_a_comment() -> None:
    from paperlint.prover.automation import gated_statement

    skeleton = "theorem t (x : ℝ) -- a comment := here\n    : 0 ≤ x ^ 2 := by\n  sorry"
    assert gated_statement(skeleton) == "theorem t (x : ℝ) -- a comment := here\n    : 0 ≤ x ^ 2"


def test_an_unparsable_skeleton_tries_nothing(tmp_path: Path) -> None:
    outcome = run_ladder(warm(tmp_path, SimulatedRepl()), CTX, "not lean at all", "t")
    assert not outcome.closed and outcome.tried == () and outcome.stopped is None

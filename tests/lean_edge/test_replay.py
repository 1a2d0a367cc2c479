import json
from pathlib import Path

import pytest

from paperlint.errors import InputError
from paperlint.lean.messages import AxiomClass, classify_axiom
from paperlint.lean.replay import ReplayVerifier, key_for_check
from paperlint.lean.verifier import FailureCode, LeanContext, Outcome, Verifier, accept
from tests.lean_edge import build_fixtures as fx

FOLDER = Path(__file__).resolve().parents[2] / "fixtures" / "lean_replay"


@pytest.fixture
def replay() -> ReplayVerifier:
    return ReplayVerifier(FOLDER)


def test_fixtures_are_up_to_date():
    lines = (FOLDER / "lean.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in lines] == fx.entries()


def test_is_a_verifier(replay):
    assert isinstance(replay, Verifier) and replay.is_replay


def test_accepted(replay):
    check = replay.check(fx.CONTEXT, fx.SQ, timeout_s=60)
    assert check.outcome is Outcome.ACCEPTED and check.replay and check.feedback == ""
    full = accept(replay, fx.CONTEXT, fx.SQ, "sq_add_one_pos", timeout_s=60)
    assert full.accepted and full.axioms == ("propext", "Classical.choice", "Quot.sound")


def test_error_gives_feedback(replay):
    check = replay.check(fx.CONTEXT, fx.BAD, timeout_s=60)
    assert check.outcome is Outcome.REJECTED and check.code is FailureCode.LEAN_ERROR
    assert check.errors()[0].line == 1 and check.errors()[0].column == 40
    assert check.feedback.splitlines() == [
        "-- ✗ error: Unknown identifier `sq_nonneg'`",
        fx.BAD,
    ]


def test_sorry(replay):
    check = replay.check(fx.CONTEXT, fx.SORRY, timeout_s=60)
    assert check.code is FailureCode.SORRY and check.outcome is Outcome.REJECTED
    assert check.goals == ("n : ℕ\nhn : 0 < n\n⊢ 1 ≤ n",)
    assert "  -- goal: n : ℕ hn : 0 < n ⊢ 1 ≤ n\n  sorry" in check.feedback
    assert "-- ⚠ warning: declaration uses `sorry`" in check.feedback


def test_unsolved_goals(replay):
    check = replay.check(fx.CONTEXT, fx.UNSOLVED, timeout_s=60)
    assert check.code is FailureCode.LEAN_ERROR
    assert check.goals == ("a b : ℝ\nha : 0 ≤ a\nhb : 0 ≤ b\n⊢ a + b ≤ max a b * 2",)
    lines = check.feedback.splitlines()
    assert lines[1] == "    -- ✗ error: unsolved goals"
    assert lines[2].startswith("    -- goal: a b : ℝ ha : 0 ≤ a")
    assert lines[3] == "    (a + b) / 2 ≤ max a b := by"


def test_heartbeats_are_a_deterministic_failure(replay):
    check = replay.check(fx.CONTEXT, fx.HEARTBEAT, timeout_s=60)
    assert check.outcome is Outcome.REJECTED and check.code is FailureCode.HEARTBEATS


def test_infrastructure_failures(replay):
    stale = replay.check(fx.CONTEXT, fx.STALE, timeout_s=60)
    assert stale.outcome is Outcome.UNAVAILABLE and stale.code is FailureCode.BACKEND_ERROR
    slow = replay.check(fx.CONTEXT, fx.SLOW, timeout_s=60)
    assert slow.outcome is Outcome.TIMEOUT and slow.code is FailureCode.TIMEOUT and slow.replay
    dead = replay.check(fx.CONTEXT, fx.CRASH, timeout_s=60)
    assert dead.outcome is Outcome.UNAVAILABLE and dead.code is FailureCode.DEAD_SERVER


def test_unrecorded_request_is_never_ok(replay):
    other = LeanContext(header=fx.HEADER, accepted=(fx.SQ,))
    check = replay.check(other, fx.SQ, timeout_s=60)
    assert check.outcome is Outcome.UNAVAILABLE and check.code is FailureCode.NO_RECORDING
    assert key_for_check(other, fx.SQ) in (check.hint or "")
    report = replay.print_axioms(fx.CONTEXT, ["nothing"], timeout_s=60)
    assert report.code is FailureCode.NO_RECORDING and report.axioms == {"nothing": None}
    final = replay.final_check(FOLDER / "Final_ok.lean", ["other_name"], timeout_s=60)
    assert final.code is FailureCode.NO_RECORDING and not final.clean


def test_refused_before_lookup(replay):
    check = replay.check(fx.CONTEXT, "axiom cheat : False", timeout_s=60)
    assert check.code is FailureCode.REFUSED and check.replay


def test_axioms(replay):
    after_sorry = fx.CONTEXT.extended(fx.SORRY)
    report = replay.print_axioms(after_sorry, ["step_two"], timeout_s=60)
    assert report.outcome is Outcome.ACCEPTED and "sorryAx" in (report.axioms["step_two"] or ())
    both = fx.CONTEXT.extended(fx.TWO_LE_THREE).extended(fx.BIG)
    report = replay.print_axioms(both, ["Paper.two_le_three", "Paper.big_check"], timeout_s=60)
    assert report.axioms["Paper.two_le_three"] == ()
    classes = {classify_axiom(a) for a in report.axioms["Paper.big_check"] or ()}
    assert AxiomClass.NATIVE in classes


def test_accept_refuses_disallowed_axioms(replay, tmp_path):
    # A proof whose closure reaches a custom axiom (declared upstream, e.g. by a stale module).
    parent = fx.CONTEXT.extended(fx.TWO_LE_THREE)
    uses = "theorem Paper.uses_helper : True := Paper.helper"
    lines = (FOLDER / "lean.jsonl").read_text(encoding="utf-8")
    extra = {
        "kind": "check",
        "request": {"header": fx.HEADER, "accepted": [fx.TWO_LE_THREE], "candidate": uses},
        "response": {"env": 9},
        "note": "hand-written",
    }
    axioms = {
        "kind": "axioms",
        "request": {
            "header": fx.HEADER,
            "accepted": [fx.TWO_LE_THREE, uses],
            "names": ["Paper.uses_helper"],
        },
        "response": {
            "messages": [
                {
                    "severity": "info",
                    "pos": {"line": 1, "column": 0},
                    "data": "'Paper.uses_helper' depends on axioms: [propext, Paper.my_axiom]",
                }
            ]
        },
    }
    path = tmp_path / "lean.jsonl"
    path.write_text(lines + json.dumps(extra) + "\n" + json.dumps(axioms) + "\n", encoding="utf-8")
    verdict = accept(ReplayVerifier(tmp_path), parent, uses, "Paper.uses_helper", timeout_s=60)
    assert verdict.outcome is Outcome.REJECTED and verdict.code is FailureCode.DISALLOWED_AXIOMS
    assert "Paper.my_axiom" in (verdict.hint or "")
    assert verdict.axioms == ("propext", "Paper.my_axiom")


def test_native_decide_is_refused_before_lean(replay):
    check = replay.check(fx.CONTEXT.extended(fx.TWO_LE_THREE), fx.BIG, timeout_s=60)
    assert check.code is FailureCode.REFUSED


def test_accept_target_not_found(replay):
    verdict = accept(replay, fx.CONTEXT, fx.SQ, "not_the_name", timeout_s=60)
    # no recording for that query: unavailable, not accepted
    assert not verdict.accepted and verdict.code is FailureCode.NO_RECORDING


def test_final_checks(replay):
    ok = replay.final_check(FOLDER / "Final_ok.lean", ["Paper.sq_add_one_pos"], timeout_s=60)
    assert ok.clean and ok.replay and ok.toolchain == fx.TOOLCHAIN
    assert ok.axioms == {"Paper.sq_add_one_pos": ("propext", "Classical.choice", "Quot.sound")}
    bad = replay.final_check(FOLDER / "Final_bad.lean", ["lemma_A2"], timeout_s=60)
    assert bad.outcome is Outcome.REJECTED and bad.has_sorry_warning and not bad.clean
    assert bad.code is FailureCode.SORRY


def test_stale_key_is_an_input_error(tmp_path):
    entry = {
        "kind": "check",
        "key": "0" * 64,
        "request": {"header": "h", "accepted": [], "candidate": "c"},
        "response": {"env": 0},
    }
    (tmp_path / "lean.jsonl").write_text(json.dumps(entry) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="does not match"):
        ReplayVerifier(tmp_path)

"""Write fixtures/lean_replay/: HAND-WRITTEN, ILLUSTRATIVE answers (docs/lean-notes.md §10).

None of these answers was recorded from Lean. The shapes follow the REPL's README and test
expectations; texts and positions are plausible only. Replace them with recordings made by
`LeanRecorder` (`check --record`) on the pinned toolchain (docs/lean-notes.md §12). Run:

    python -m tests.lean_edge.build_fixtures

`test_fixtures_are_up_to_date` fails when the committed file drifts from this script.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from paperlint.lean.messages import marked_axiom_queries, marker_id
from paperlint.lean.replay import key_for_request
from paperlint.lean.verifier import LeanContext

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "fixtures" / "lean_replay"
TOOLCHAIN = "leanprover/lean4:v4.35.0"
NOTE = "hand-written (illustrative, lean.md §10; not recorded from Lean)"

HEADER = "import Mathlib\nset_option maxHeartbeats 400000\nset_option autoImplicit false\nopen Real"
CONTEXT = LeanContext(header=HEADER)

SQ = "theorem sq_add_one_pos (x : ℝ) : 0 < x ^ 2 + 1 := by positivity"
BAD = "theorem bad_name (x : ℝ) : 0 ≤ x ^ 2 := sq_nonneg' x"
SORRY = "theorem step_two (n : ℕ) (hn : 0 < n) : 1 ≤ n := by\n  sorry"
UNSOLVED = (
    "theorem mean_bound (a b : ℝ) (ha : 0 ≤ a) (hb : 0 ≤ b) :\n"
    "    (a + b) / 2 ≤ max a b := by\n  rw [div_le_iff₀ (by norm_num)]"
)
HEARTBEAT = (
    "theorem slow (n : ℕ) : n + 0 = n := by\n  induction n with\n"
    "  | zero => simp_all\n  | succ n ih => omega"
)
STALE = "theorem t : True := trivial"
SLOW = "theorem takes_forever : True := by\n  sleep 100000\n  trivial"
CRASH = "theorem crashes_the_repl : True := trivial"
TWO_LE_THREE = "theorem Paper.two_le_three : 2 ≤ 3 := by decide"
BIG = "theorem Paper.big_check : 2 ^ 10 = 1024 := by native_decide"

FINAL_OK = (
    HEADER + "\n\nnamespace Paper\n\ntheorem sq_add_one_pos (x : ℝ) : 0 < x ^ 2 + 1 := by\n"
    "  positivity\n\nend Paper\n"
)
FINAL_BAD = HEADER + "\n\ntheorem lemma_A2 (x : ℝ) (h : 0 < x) : 0 < x := by\n  sorry\n"


def _pos(line: int, column: int) -> dict[str, int]:
    return {"line": line, "column": column}


def _msg(severity: str, line: int, col: int, end: tuple[int, int], data: str) -> dict[str, Any]:
    return {"severity": severity, "pos": _pos(line, col), "endPos": _pos(*end), "data": data}


def _entry(kind: str, request: dict[str, Any], **answer: Any) -> dict[str, Any]:
    return {
        "kind": kind,
        "key": key_for_request(kind, request),
        "request": request,
        "response": answer.get("response"),
        "raise": answer.get("raise"),
        "failure": None,
        "toolchain": TOOLCHAIN,
        "note": NOTE,
    }


def _check(context: LeanContext, candidate: str, **answer: Any) -> dict[str, Any]:
    request = {"header": context.header, "accepted": list(context.accepted), "candidate": candidate}
    return _entry("check", request, **answer)


def _axioms(context: LeanContext, names: list[str], **answer: Any) -> dict[str, Any]:
    request = {"header": context.header, "accepted": list(context.accepted), "names": names}
    return _entry("axioms", request, **answer)


def _final(text: str, names: list[str], build: dict[str, Any], axioms: Any) -> dict[str, Any]:
    sha = hashlib.sha256(text.encode()).hexdigest()
    return _entry(
        "final",
        {"file_sha256": sha, "names": names},
        response={"build": build, "axioms": axioms},
    )


def _marked_output(names_answers: list[tuple[str, str]], sha: str) -> str:
    # What `lake env lean` is expected to print for marked_axiom_queries (unverified form:
    # info messages without a position prefix, docs/lean-notes.md §4.3).
    lines = []
    for name, answer in names_answers:
        mid = marker_id(name, sha)
        lines += [
            f'"PAPERLINT_AXIOMS_BEGIN_{mid}" : String',
            answer,
            f'"PAPERLINT_AXIOMS_END_{mid}" : String',
        ]
    return "\n".join(lines) + "\n"


def entries() -> list[dict[str, Any]]:
    heartbeat_text = (
        "(deterministic) timeout at `whnf`, maximum number of heartbeats (400000) has been "
        "reached\nUse `set_option maxHeartbeats <num>` to set the limit.\n\nAdditional "
        "diagnostic information may be available using the `set_option diagnostics true` "
        "command."
    )
    after_sq = CONTEXT.extended(SQ)
    after_sorry = CONTEXT.extended(SORRY)
    after_both = CONTEXT.extended(TWO_LE_THREE).extended(BIG)
    ok_sha = hashlib.sha256(FINAL_OK.encode()).hexdigest()
    standard = "'Paper.sq_add_one_pos' depends on axioms: [propext, Classical.choice, Quot.sound]"
    assert marked_axiom_queries(["Paper.sq_add_one_pos"], ok_sha)  # same helper as final.py
    return [
        {"kind": "comment", "note": NOTE},
        _check(CONTEXT, SQ, response={"env": 1}),
        _check(
            CONTEXT,
            BAD,
            response={
                "messages": [_msg("error", 1, 40, (1, 50), "Unknown identifier `sq_nonneg'`")],
                "env": 2,
            },
        ),
        _check(
            CONTEXT,
            SORRY,
            response={
                "sorries": [
                    {
                        "proofState": 0,
                        "pos": _pos(2, 2),
                        "goal": "n : ℕ\nhn : 0 < n\n⊢ 1 ≤ n",
                        "endPos": _pos(2, 7),
                    }
                ],
                "messages": [_msg("warning", 1, 8, (1, 16), "declaration uses `sorry`")],
                "env": 3,
            },
        ),
        _check(
            CONTEXT,
            UNSOLVED,
            response={
                "messages": [
                    _msg(
                        "error",
                        2,
                        29,
                        (3, 32),
                        "unsolved goals\na b : ℝ\nha : 0 ≤ a\nhb : 0 ≤ b\n⊢ a + b ≤ max a b * 2",
                    )
                ],
                "env": 4,
            },
        ),
        _check(
            CONTEXT,
            HEARTBEAT,
            response={"messages": [_msg("error", 3, 2, (3, 12), heartbeat_text)], "env": 5},
        ),
        _check(CONTEXT, STALE, response={"message": "Unknown environment."}),
        _check(
            CONTEXT,
            SLOW,
            **{
                "raise": {
                    "type": "TimeoutError",
                    "message": "The Lean server did not respond "
                    "in time (timeout=60) and is now killed.",
                }
            },
        ),
        _check(
            CONTEXT,
            CRASH,
            **{
                "raise": {
                    "type": "ConnectionAbortedError",
                    "message": "The Lean server closed unexpectedly.",
                }
            },
        ),
        _axioms(
            after_sq,
            ["sq_add_one_pos"],
            response={
                "messages": [
                    _msg(
                        "info",
                        1,
                        0,
                        (1, 6),
                        "'sq_add_one_pos' depends on axioms: [propext, Classical.choice, "
                        "Quot.sound]",
                    )
                ],
                "env": 6,
            },
        ),
        _axioms(
            after_sorry,
            ["step_two"],
            response={
                "messages": [
                    _msg(
                        "info",
                        1,
                        0,
                        (1, 6),
                        "'step_two' depends on axioms: [propext, sorryAx, Classical.choice, "
                        "Quot.sound]",
                    )
                ],
                "env": 7,
            },
        ),
        _axioms(
            after_both,
            ["Paper.two_le_three", "Paper.big_check"],
            response={
                "messages": [
                    _msg(
                        "info", 1, 0, (1, 6), "'Paper.two_le_three' does not depend on any axioms"
                    ),
                    _msg(
                        "info",
                        2,
                        0,
                        (2, 6),
                        # Lean >= 4.24 (pinned 4.35): one auxiliary axiom per `native_decide`
                        # (Lean.Meta.nativeEqTrue), no longer `Lean.ofReduceBool`.
                        "'Paper.big_check' depends on axioms: [propext,\n Classical.choice,\n "
                        "Quot.sound,\n Paper.big_check._native.native_decide.ax_1_1]",
                    ),
                ],
                "env": 8,
            },
        ),
        _final(
            FINAL_OK,
            ["Paper.sq_add_one_pos"],
            {"exit_code": 0, "output": "", "duration_s": 41.5},
            {
                "exit_code": 0,
                "output": _marked_output([("Paper.sq_add_one_pos", standard)], ok_sha),
                "duration_s": 40.9,
            },
        ),
        _final(
            FINAL_BAD,
            ["lemma_A2"],
            {
                "exit_code": 0,
                "output": "Final_bad.lean:7:8: warning: declaration uses `sorry`\n",
                "duration_s": 39.0,
            },
            None,
        ),
    ]


def write() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    (FOLDER / "Final_ok.lean").write_text(FINAL_OK, encoding="utf-8")
    (FOLDER / "Final_bad.lean").write_text(FINAL_BAD, encoding="utf-8")
    lines = [json.dumps(e, ensure_ascii=False) for e in entries()]
    (FOLDER / "lean.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write()

"""Write fixtures/faithful/: four cases of issue #15, with HAND-WRITTEN Lean answers.

No Lean was available. Each case runs the real checks (`paperlint.faithful.check`) once
against `tests.faithful.lean_answers.Author`, whose rules below say which candidate Lean
accepts; every other candidate gets a plausible error. The requests and answers are written
as `lean.jsonl` (the `ReplayVerifier` format) beside `case.json` (inputs and answer key,
written before the run from the mathematics, not from the output). Run:

    python -m tests.faithful.build_fixtures

`test_fixtures_are_up_to_date` fails when a committed file drifts from this script.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paperlint.faithful.check import after_proof, check_statement
from paperlint.lean.verifier import LeanContext, Verifier
from paperlint.records.faithfulness import FaithfulnessEvidence
from tests.faithful.lean_answers import (
    NOTE,
    Author,
    Rule,
    counterexample,
    error,
    ok,
    when,
    when_all,
)

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "fixtures" / "faithful"
HEADER = "import Mathlib\nset_option maxHeartbeats 400000\nset_option autoImplicit false"
NOT_TESTABLE = error(
    "failed to synthesize\n  Plausible.Testable (∀ (x : ℝ), …)\n\nAdditional diagnostic "
    "information may be available using the `set_option diagnostics true` command.",
    line=2,
)


@dataclass(frozen=True)
class Case:
    result: str
    tex: str
    first: str
    second: str | None
    answer_key: dict[str, Any]
    rules: list[Rule] = field(default_factory=list)
    verified: str | None = None


CASES: dict[str, Case] = {
    "equivalent-drafts": Case(
        result="lem:midpoint",
        tex=r"For all real numbers $x \le y$ we have $\frac{x+y}{2} \le y$.",
        first="theorem mid_le (x y : ℝ) (h : x ≤ y) : (x + y) / 2 ≤ y := by\n  sorry",
        second="theorem mid_le' (a b : ℝ) (hab : a ≤ b) : (a + b) / 2 ≤ b := by\n  sorry",
        rules=[when("plausible", NOT_TESTABLE), when("apply h_src_faithful", ok())],
        answer_key={
            "agreement": "equivalent",
            "rungs": {"first_implies_second": "apply", "second_implies_first": "apply"},
            "refuted": False,
            "lints": [],
        },
    ),
    "lt-vs-le": Case(
        result="lem:square",
        tex=r"If $0 \le x \le 1$ then $x^2 \le x$; the case $x = 1$ is used in Theorem 2.",
        first="theorem sq_le (x : ℝ) (h0 : 0 ≤ x) (h1 : x ≤ 1) : x ^ 2 ≤ x := by\n  sorry",
        second="theorem sq_le (x : ℝ) (h0 : 0 ≤ x) (h1 : x < 1) : x ^ 2 ≤ x := by\n  sorry",
        rules=[
            when("plausible", NOT_TESTABLE),
            # ≤ 1 gives < 1 after `apply`, closed by linarith; the converse needs x = 1.
            lambda c: ok() if "(h1 : x ≤ 1), x ^ 2 ≤ x) :" in c and "apply" in c else None,
        ],
        answer_key={
            "agreement": "first_implies_second_only",
            "failing": ["second_implies_first"],
            "paper_reading": "first",  # the paper's `≤` matters (x = 1): the gate keeps draft 1
            "refuted": False,
            "lints": [],
        },
    ),
    "nat-subtraction": Case(
        result="lem:square-diff",
        tex=r"For all integers $m, n \in \mathbb{Z}$, $(m-n)^2 = m^2 - 2mn + n^2$.",
        first="theorem sq_sub (m n : ℕ) : (m - n) ^ 2 = m ^ 2 - 2 * m * n + n ^ 2 := by\n  sorry",
        second="theorem sq_sub (m n : ℤ) : (m - n) ^ 2 = m ^ 2 - 2 * m * n + n ^ 2 := by\n  sorry",
        rules=[
            # Only the ℕ draft is false; the ℤ draft (probed too, the drafts disagree) is true.
            when_all(
                ["plausible", "∀ (m n : ℕ)"],
                counterexample({"m": "0", "n": "1"}, "0 = 1 does not hold"),
            ),
            when_all(["h_cex (m := 0) (n := 1)", "∀ (m n : ℕ)"], ok()),
        ],
        answer_key={
            "agreement": "unproved",
            "refuted": True,
            "refutation_step": "witness",
            "assignment": {"m": "0", "n": "1"},
            "second_refuted": False,
            "lints": ["nat-arithmetic"],
            "next": "back to the drafter with the witness: the paper is about ℤ",
        },
    ),
    "unneeded-hypothesis": Case(
        result="lem:positive",
        tex=r"For every real $x \ge 0$ we have $x^2 + 1 > 0$.",
        first="theorem sq_add_one_pos (x : ℝ) (hx : 0 ≤ x) : 0 < x ^ 2 + 1 := by\n  sorry",
        second="theorem sq_add_one_pos' (y : ℝ) (hy : 0 ≤ y) : 0 < y ^ 2 + 1 := by\n  sorry",
        verified="theorem sq_add_one_pos (x : ℝ) (hx : 0 ≤ x) : 0 < x ^ 2 + 1 := by\n  positivity",
        rules=[
            when("plausible", NOT_TESTABLE),
            when("apply h_src_faithful", ok()),
            when("theorem sq_add_one_pos_without_hx (x : ℝ) :", ok()),
        ],
        answer_key={
            "agreement": "equivalent",
            "refuted": False,
            "lints": [],
            "unneeded": ["hx"],
        },
    ),
}


def context() -> LeanContext:
    return LeanContext(header=HEADER)


def run_case(case: Case, verifier: Verifier) -> FaithfulnessEvidence:
    evidence = check_statement(
        verifier,
        context(),
        result=case.result,
        statement=case.first,
        second=case.second,
        tex=case.tex,
        timeout_s=60,
    )
    if case.verified is not None:
        evidence = after_proof(verifier, evidence, case.verified, timeout_s=60)
    return evidence


def case_json(name: str, case: Case) -> dict[str, Any]:
    return {
        "note": NOTE,
        "case": name,
        "result": case.result,
        "tex": case.tex,
        "header": HEADER,
        "first": case.first,
        "second": case.second,
        "verified": case.verified,
        "answer_key": case.answer_key,
    }


def build() -> dict[str, dict[str, str]]:
    """File name → text, per case folder."""
    out: dict[str, dict[str, str]] = {}
    for name, case in CASES.items():
        author = Author(case.rules)
        run_case(case, author)
        out[name] = {
            "case.json": json.dumps(case_json(name, case), ensure_ascii=False, indent=2) + "\n",
            "lean.jsonl": "\n".join(author.lines()) + "\n",
        }
    return out


def main() -> None:
    for name, files in build().items():
        folder = FOLDER / name
        folder.mkdir(parents=True, exist_ok=True)
        for file, text in files.items():
            (folder / file).write_text(text, encoding="utf-8")
        print(f"wrote {folder}")


if __name__ == "__main__":
    main()

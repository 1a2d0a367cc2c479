"""A synthetic check workspace built from the pydantic records (no model, no Lean).

Nine results cover all four verdicts, every condition kind, an ERROR with a counterexample
file, a gap confirmed by review, two unfinished reasons, a definition (an input) and a result
still in progress. The paper text carries HTML so the tests can prove it is escaped.
"""

from __future__ import annotations

import json
from pathlib import Path

from paperlint.preflight.model import BibEntry, Citation, Diagnostic, Inventory, Proof, Result, Span
from paperlint.records import write_record
from paperlint.records.results import (
    Condition,
    ConditionSource,
    Evidence,
    Issue,
    ResultRecord,
    Results,
    Unfinished,
)

INJECTION = "<img src=x onerror=alert(1)>"
AXIOMS = ["propext", "Classical.choice", "Quot.sound"]

LEAN_2_1 = """import Mathlib

namespace Paper

/-- The variance of a constant is zero. -/
theorem lemma_2_1 (c : ℝ) (n : ℕ) (hn : 0 < n) :
    (∑ _i : Fin n, (c - c) ^ 2) / n = 0 := by
  simp

-- a helper with a similar name must not be picked
theorem lemma_2_1_aux : True := trivial

end Paper
"""

LEAN_2_2 = """import Mathlib

namespace Paper

theorem lemma_2_2 (X : ℕ → ℝ) (t : ℝ)
    (h_cite_hoeffding : ∀ n, True)
    (h_asserted_bound : ∀ n, |X n| ≤ 1) :
    True := by
  trivial

end Paper
"""

LEAN_CEX = """import Mathlib

/-- The printed bound fails for n = 1. -/
theorem Paper.lemma_2_4_counterexample : ¬ (∀ n : ℕ, n ≤ 2 * n - 1) := by
  decide
"""


def _span(line: int) -> Span:
    return Span(file="sections/main.tex", start_line=line, end_line=line + 2)


def _inv(rid: str, kind: str, number: str | None, line: int, **extra: object) -> Result:
    title = "Claim" if number is None else kind.capitalize()
    statement = extra.pop("statement", f"Statement of {rid} with $x_n \\le 1$.")
    return Result(
        id=rid,
        env=kind,
        kind=kind,  # type: ignore[arg-type]
        title=title,
        number=number,
        labels=[rid],
        statement=str(statement),
        span=_span(line),
        proof=Proof(span=_span(line + 3), text=f"Proof of {rid}."),
        **extra,  # type: ignore[arg-type]
    )


def build_inventory() -> Inventory:
    return Inventory(
        root="main.tex",
        results=[
            _inv("def:mean", "definition", "1.1", 10),
            _inv("lem:var", "lemma", "2.1", 20, uses=["def:mean"]),
            _inv(
                "lem:hoeff",
                "lemma",
                "2.2",
                30,
                statement=f"For all $t > 0$, $P(S_n > t) \\le e^{{-2t^2}}$. {INJECTION}",
                proof_uses=["lem:var"],
                citations=[Citation(key="hoeffding1963", note="Theorem 2", where="proof")],
            ),
            _inv("lem:bad", "lemma", "2.4", 40, uses=["def:mean"]),
            _inv("thm:main", "theorem", "2.3", 50, uses=["lem:hoeff"], proof_uses=["lem:bad"]),
            _inv("prop:gap", "proposition", "2.5", 60, proof_uses=["lem:var", "lem:hoeff"]),
            _inv("cor:budget", "corollary", "2.6", 70, uses=["thm:main"]),
            _inv("lem:lib", "lemma", "2.7", 80, proof_uses=["thm:main"]),
            _inv("claim:open", "claim", None, 90, proof_uses=["lem:lib"]),
        ],
        bibliography=[
            BibEntry(
                key="hoeffding1963",
                text="W. Hoeffding, Probability inequalities for sums of bounded random "
                "variables, JASA 58 (1963) 13–30.",
            )
        ],
        diagnostics=DIAGNOSTICS,
    )


# What preflight found in the source: one of each severity, with and without a column/line.
DIAGNOSTICS = [
    Diagnostic(
        severity="error",
        file="main.tex",
        line=95,
        column=1,
        code="unterminated-environment",
        message="\\begin{proof} is never closed",
    ),
    Diagnostic(
        severity="warning",
        file="main.tex",
        line=41,
        column=7,
        code="duplicate-label",
        message="label 'lem:var' defined again <b>",
    ),
    Diagnostic(
        severity="warning",
        file="sections/intro.tex",
        line=3,
        column=12,
        code="undefined-reference",
        message="\\ref{lem:nope}: no such label",
    ),
    Diagnostic(severity="info", file="main.tex", code="includeonly", message="only some parts"),
]


def _conditions() -> list[Condition]:
    return [
        Condition(
            name="h_cite_hoeffding",
            lean_type="∀ n, True",
            kind="cited",
            source=ConditionSource(key="hoeffding1963", locator="Theorem 2"),
            used_by="step 2",
        ),
        Condition(
            name="h_asserted_bound",
            lean_type="∀ n, |X n| ≤ 1",
            kind="asserted",
            source=ConditionSource(quote="It is well known that $|X_n| \\le 1$."),
            used_by="step 1",
        ),
        Condition(
            name="h_missing_mgf",
            lean_type="∀ s : ℝ, mgf X s ≤ Real.exp (s ^ 2 / 8)",
            kind="missing_from_mathlib",
            source=ConditionSource(quote="Hoeffding's lemma"),
            used_by="step 3",
        ),
    ]


def build_results() -> Results:
    ok = Evidence(axioms=AXIOMS, gate="audits/lem:var/gate-1.json", statement_fingerprint="f1")
    records = [
        ResultRecord(
            id="def:mean", number="1.1", kind="definition", stage="done", verdict_bearing=False
        ),
        ResultRecord(
            id="lem:var",
            number="2.1",
            kind="lemma",
            stage="done",
            verdict="verified_unconditional",
            evidence=ok.model_copy(
                update={
                    "lean_file": "lean/Paper/Lemma_2_1.lean",
                    "lean_name": "Paper.lemma_2_1",
                    "final_check": "audits/lem:var/final-1.json",
                }
            ),
        ),
        ResultRecord(
            id="lem:hoeff",
            number="2.2",
            kind="lemma",
            stage="done",
            verdict="verified_conditional",
            conditions=_conditions(),
            evidence=Evidence(
                lean_file="lean/Paper/Lemma_2_2.lean", lean_name="Paper.lemma_2_2", axioms=AXIOMS
            ),
        ),
        ResultRecord(
            id="thm:main",
            number="2.3",
            kind="theorem",
            stage="done",
            verdict="verified_conditional",
            conditions=[
                Condition(
                    name="h_clause_bad",
                    lean_type="∀ n : ℕ, n ≤ 2 * n - 1",
                    kind="clause_with_issue",
                    source=ConditionSource(result="lem:bad"),
                    used_by="step 4",
                )
            ],
            evidence=Evidence(lean_file="lean/Paper/Theorem_2_3.lean", lean_name="Paper.thm_2_3"),
        ),
        ResultRecord(
            id="lem:bad",
            number="2.4",
            kind="lemma",
            stage="done",
            verdict="issue",
            issue=Issue.model_validate(
                {
                    "class": "ERROR",
                    "side": "paper",
                    "location": {
                        "file": "sections/main.tex",
                        "line": 41,
                        "quote": f"for all $n$, $n \\le 2n-1$ {INJECTION}",
                    },
                    "summary": "Fails for n = 0. <script>alert('x')</script>",
                    "evidence": {
                        "counterexample": "lean/Paper/Lemma_2_4_cex.lean",
                        "confirmed_by": "auditor",
                        "raised_by": "prover",
                    },
                }
            ),
        ),
        ResultRecord(
            id="prop:gap",
            number="2.5",
            kind="proposition",
            stage="done",
            verdict="issue",
            issue=Issue.model_validate(
                {
                    "class": "PAPER_ARGUMENT_GAP",
                    "side": "paper",
                    "location": {"file": "sections/main.tex", "line": 63, "quote": "Clearly"},
                    "summary": "Step 2 uses monotonicity that does not hold.",
                    "evidence": {
                        "confirmed_by": "auditor",
                        "review": "audits/prop:gap/issue-1.json",
                    },
                }
            ),
        ),
        ResultRecord(
            id="cor:budget",
            number="2.6",
            kind="corollary",
            stage="proving",
            verdict="unfinished",
            unfinished=Unfinished(
                reason="budget_exhausted", detail="prover budget spent", remaining=["step 3"]
            ),
        ),
        ResultRecord(
            id="lem:lib",
            number="2.7",
            kind="lemma",
            stage="proving",
            verdict="unfinished",
            unfinished=Unfinished(
                reason="missing_library_interface", detail="no Donsker theorem in Mathlib"
            ),
        ),
        ResultRecord(id="claim:open", number=None, kind="claim", stage="proving"),
    ]
    # Records in an order different from the paper's, to check document order.
    return Results(
        replay=True, replay_parts=["model", "lean"], paper="main.tex", results=records[::-1]
    )


def _event(seq: int, ts: str, type_: str, **fields: object) -> dict[str, object]:
    return {"seq": seq, "ts": f"2026-11-29T{ts}Z", "type": type_, **fields}


def _call(role: str, model: str, result: str | None, cost: float | None) -> dict[str, object]:
    return {
        "role": role,
        "model": model,
        "result": result,
        "obligation": None,
        "attempt": 1,
        "tokens_in": 1000,
        "tokens_out": 200,
        "cost_usd": cost,
        "duration_s": 3.5,
        "replay": True,
        "prompt_sha256": "0" * 64,
        "ok": True,
    }


SONNET, OPUS = "anthropic/claude-sonnet", "anthropic/claude-opus"
CALLS = [
    ("drafter", SONNET, "lem:var", 0.25),
    ("gate", OPUS, "lem:var", 1.5),
    ("prover", SONNET, "lem:hoeff", 0.75),
    ("prover", OPUS, "lem:hoeff", None),  # cost unknown: must never show as $0
    ("auditor", OPUS, "lem:bad", 2.0),
    ("issue_checker", OPUS, "lem:bad", 3.25),
]


def build_events() -> list[dict[str, object]]:
    events = [_event(1, "10:00:00", "run_started", command="check", replay=["model", "lean"])]
    for i, (role, model, result, cost) in enumerate(CALLS[:4]):
        events.append(
            _event(2 + i, f"10:0{i + 1}:00", "model_call", **_call(role, model, result, cost))
        )
    events.append(_event(6, "10:30:00", "run_finished", exit_code=130, summary={}))
    # A resumed run two hours later: the idle time between the runs is not wall time.
    events.append(_event(7, "12:00:00", "run_started", command="resume", replay=["model"]))
    for i, (role, model, result, cost) in enumerate(CALLS[4:]):
        events.append(
            _event(8 + i, f"12:0{i + 1}:00", "model_call", **_call(role, model, result, cost))
        )
    events.append(_event(10, "12:10:00", "run_finished", exit_code=1, summary={}))
    return events


TOML = """[versions]
paperlint = "0.1.0"
lean_toolchain = "leanprover/lean4:v4.22.0"
mathlib = "0123456789abcdef"

[versions.models]
drafter = "anthropic/claude-sonnet"
prover = "anthropic/claude-sonnet"
gate = "anthropic/claude-opus"
"""


def build_workspace(
    root: Path, *, events: bool = True, toml: bool = True, inventory: bool = True
) -> Path:
    """Write the synthetic workspace under `root/paper.paperlint` and return its path."""
    ws = root / "paper.paperlint"
    write_record(ws / "results.json", build_results())
    if inventory:
        write_record(ws / "inventory.json", build_inventory())
    if events:
        lines = [json.dumps(e) for e in build_events()]
        (ws / "events.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    if toml:
        (ws / "paperlint.toml").write_text(TOML, encoding="utf-8")
    lean = ws / "lean" / "Paper"
    lean.mkdir(parents=True, exist_ok=True)
    (lean / "Lemma_2_1.lean").write_text(LEAN_2_1, encoding="utf-8")
    (lean / "Lemma_2_2.lean").write_text(LEAN_2_2, encoding="utf-8")
    (lean / "Lemma_2_4_cex.lean").write_text(LEAN_CEX, encoding="utf-8")
    return ws

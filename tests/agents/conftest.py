"""Shared helpers for the agents tests: minimal inputs and answers per task."""

import json
from pathlib import Path

import pytest

from paperlint.agents.outputs import FidelityFields
from paperlint.agents.transcript import TRANSCRIPT_FILE

RESULT = {
    "id": "lem:median",
    "kind": "lemma",
    "number": "2.1",
    "statement": r"For every $n \ge 1$, the median of $X_1,\dots,X_n$ lies in $[a,b]$.",
}
STEP = {"id": "s1", "text": "By Chebyshev's inequality, ...", "justification": "Chebyshev"}
DRAFT = {
    "lean_name": "median_mem",
    "statement": "theorem median_mem (n : ℕ) (hn : 1 ≤ n) : True := by sorry",
    "fidelity": {
        "object_class": "real random variables",
        "quantifier_order": "∀ n",
        "parameter_domains": "n ≥ 1",
        "codomain": "ℝ",
        "hypotheses": "none",
        "conclusion": "median in [a, b]",
    },
}
ISSUE = {"raised_by": "prover", "step": "s1", "description": "Chebyshev needs finite variance."}

MINIMAL_INPUTS = {
    "architect": {"result": RESULT, "proof": "By Chebyshev."},
    "drafter": {"result": RESULT, "steps": [STEP]},
    "second_drafter": {"result": RESULT, "steps": [STEP]},
    "gate": {"result": RESULT, "draft": DRAFT},
    "prover": {"result": RESULT, "obligation": {"id": "s1", "lean": "lemma s1 : True := by sorry"}},
    "auditor": {"result": RESULT, "lean_file": "theorem median_mem : True := trivial"},
    "reviewer": {"result": RESULT, "suspected_issue": ISSUE},
    "issue_checker": {"result": RESULT, "suspected_issue": ISSUE},
    "convergence": {"results": [{"id": "lem:a", "kind": "lemma", "statement": "$0 \\le x^2$"}]},
}

VALID_ANSWERS = {
    "architect": {"steps": [STEP]},
    "drafter": DRAFT,
    "second_drafter": DRAFT,
    "gate": {
        "decision": "PASS",
        "fields": [
            {"field": name, "ok": True, "comment": ""} for name in FidelityFields.model_fields
        ],
    },
    "prover": {"lean": "lemma s1 : True := trivial"},
    "auditor": {"decision": "PASS", "route_followed": True},
    "reviewer": {"confirms": True, "explanation": "Indeed."},
    "issue_checker": {"is_issue": False},
    "convergence": {"flags": []},
}


def entry(
    task,
    response,
    *,
    role=None,
    result="lem:median",
    obligation=None,
    attempt=1,
    repair=0,
    prompt_sha256=None,
    usage=(100, 20),
    cost_usd=None,
):
    from paperlint.agents.runner import TASK_ROLES

    line = {
        "task": task,
        "role": role or str(TASK_ROLES[task]),
        "result": result,
        "obligation": obligation,
        "attempt": attempt,
        "repair": repair,
        "prompt_sha256": prompt_sha256,
        "response": response if isinstance(response, str) else json.dumps(response),
        "usage": {"prompt_tokens": usage[0], "completion_tokens": usage[1]},
    }
    if cost_usd is not None:
        line["cost_usd"] = cost_usd
    return line


@pytest.fixture
def write_transcript(tmp_path):
    def write(*entries, folder: Path | None = None) -> Path:
        replay = folder or tmp_path / "replay"
        replay.mkdir(parents=True, exist_ok=True)
        text = "".join(json.dumps(item) + "\n" for item in entries)
        (replay / TRANSCRIPT_FILE).write_text(text, encoding="utf-8")
        return replay

    return write

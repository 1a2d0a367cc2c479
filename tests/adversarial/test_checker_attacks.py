"""Attacks on the verdict that the trusted checker must stop (issue #25), and clean answers.

`checker/*.lean` each hold a hostile prover answer and say, in header comments:
  `-- family:` evidence-rewriting | poisoned-context | target | effects
  `-- refused: <rule> @ <line>` when the answer allowlist refuses it before Lean, and/or
  `-- checker: <rules>` with `-- facts: <json>`: the facts the checker program records when
  the compiled answer reaches it (hand-written from Lean's documented behaviour: no checker
  can be compiled here), each of whose rules `judge` must name.
Every attack is refused before Lean or caught by the checker's recorded verdict; most are
both. `checker_clean/*.lean` use the same words in comments, strings and names, with the
facts the checker records for them (a `@[simp]` lemma, a matcher, a private helper): they
pass both the allowlist and the checker. Facts patch `tests/checker/support.passing_record`:
a key replaces, `+key` appends, `candidate` merges; "PROOF" is the candidate module.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from paperlint.lean.answer import answer_findings, answer_problem
from paperlint.lean.checker import judge, parse_record
from tests.checker.support import PROOF_MODULE, passing_record, request

HERE = Path(__file__).parent
ATTACKS = sorted((HERE / "checker").glob("*.lean"))
CLEAN = sorted((HERE / "checker_clean").glob("*.lean"))
SKELETON = "theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by\n  sorry\n"
FAMILIES = {"evidence-rewriting", "poisoned-context", "target", "effects"}


def _header(path: Path) -> dict[str, str]:
    found = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = re.match(r"-- (family|attack|refused|checker|facts|clean): (.*)$", line)
        if not match:
            break
        found[match[1]] = match[2]
    return found


def _record(facts: dict[str, Any]) -> dict[str, Any]:
    record = copy.deepcopy(passing_record(target="main"))
    record["reference"]["name"] = record["candidate"]["name"] = "main"
    text = json.dumps(facts).replace('"PROOF"', json.dumps(PROOF_MODULE))
    for key, value in json.loads(text).items():
        if key.startswith("+"):
            where = record["reference"] if key == "+constants" else record
            name = key[1:]
            where[name] = [*(where[name] or []), *value]
        elif key == "candidate" and value is not None:
            record["candidate"].update(value)
        else:
            record[key] = value
    return record


def _checker_rules(facts: dict[str, Any]) -> set[str]:
    parsed, why = parse_record(_record(facts))
    assert parsed is not None, why
    return {f.rule.value for f in judge(parsed, request(target="main")).findings}


def test_the_suite_covers_every_family_with_enough_cases():
    assert len(ATTACKS) >= 40 and len(CLEAN) >= 10
    assert {_header(p)["family"] for p in ATTACKS} == FAMILIES


@pytest.mark.parametrize("path", ATTACKS, ids=lambda p: p.stem)
def test_each_attack_is_refused_before_lean_or_caught_by_the_checker(path):
    header = _header(path)
    text = path.read_text(encoding="utf-8")
    assert "refused" in header or "checker" in header, f"{path.name} names no defence"
    if "refused" in header:
        rule, line = header["refused"].split(" @ ")
        hits = {(f.rule.value, f.line) for f in answer_findings(text) if f.blocking}
        assert (rule, int(line)) in hits, sorted(hits)
        assert answer_problem(SKELETON, text), "the engine must refuse it too"
    if "checker" in header:
        expected = set(header["checker"].split())
        assert expected <= _checker_rules(json.loads(header["facts"])), header["checker"]


def test_an_attack_the_old_text_scan_missed_is_caught_twice():
    """`decide (config := { native := (true) })` passed every text gate (issue 25 item 6): the
    token scan now refuses any `native` identifier, and the checker's own axiom walk finds
    `Lean.ofReduceBool` whatever spelling reached Lean."""
    path = HERE / "checker" / "decide_native_config.lean"
    text = path.read_text(encoding="utf-8")
    assert "native-decide" in answer_problem(SKELETON, text)
    assert "axiom-not-allowed" in _checker_rules(json.loads(_header(path)["facts"]))


@pytest.mark.parametrize("path", CLEAN, ids=lambda p: p.stem)
def test_each_clean_answer_passes_the_allowlist_and_the_checker(path):
    text = path.read_text(encoding="utf-8")
    assert [f.render() for f in answer_findings(text)] == []
    assert answer_problem(SKELETON, text) == ""
    assert _checker_rules(json.loads(_header(path)["facts"])) == set()

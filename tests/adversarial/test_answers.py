"""The prover-answer allowlist against hostile model answers and clean ones.

`refused/*.lean`: each starts with `-- expect: <rule> @ <line>` and must be refused before
Lean with a blocking finding of that rule at that line (the header line counts). `clean/*.lean`:
keywords in comments, strings and identifiers, helpers first, allowed prefixes: no finding.
The same files go through `paperlint lean scan --skeleton`, which applies exactly this list.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from paperlint.cli.root import run
from paperlint.lean.answer import answer_findings, answer_problem

HERE = Path(__file__).parent
REFUSED = sorted((HERE / "refused").glob("*.lean"))
CLEAN = sorted((HERE / "clean").glob("*.lean"))
SKELETON = "theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := by\n  sorry\n"


def _expected(path: Path) -> tuple[str, int]:
    match = re.match(r"-- expect: (\S+) @ (\d+)", path.read_text(encoding="utf-8"))
    assert match, f"{path.name} needs a `-- expect: <rule> @ <line>` header"
    return match.group(1), int(match.group(2))


def test_the_suite_is_big_enough():
    assert len(REFUSED) >= 40 and len(CLEAN) >= 10


@pytest.mark.parametrize("path", REFUSED, ids=lambda p: p.stem)
def test_each_hostile_answer_is_refused_at_its_line(path):
    rule, line = _expected(path)
    findings = answer_findings(path.read_text(encoding="utf-8"))
    hits = [(f.rule.value, f.line) for f in findings if f.blocking]
    assert (rule, line) in hits, [f.render() for f in findings]


@pytest.mark.parametrize("path", CLEAN, ids=lambda p: p.stem)
def test_each_clean_answer_passes(path):
    assert [f.render() for f in answer_findings(path.read_text(encoding="utf-8"))] == []


@pytest.mark.parametrize("path", REFUSED, ids=lambda p: p.stem)
def test_the_engine_refuses_them_before_lean(path):
    problem = answer_problem(SKELETON, path.read_text(encoding="utf-8"))
    assert problem.startswith("refused before Lean:") or "main" in problem, problem


def test_a_helper_lemma_before_the_main_theorem_is_accepted():
    """Issue 11 item 10: the engine fingerprinted the first declaration (false audit_failed)."""
    answer = (HERE / "clean" / "helper_first.lean").read_text(encoding="utf-8")
    assert answer_problem(SKELETON, answer) == ""


@pytest.mark.parametrize("path", REFUSED[:10] + CLEAN[:3], ids=lambda p: p.stem)
def test_lean_scan_skeleton_applies_the_same_allowlist(path, tmp_path, capsys):
    skeleton = tmp_path / "skeleton.lean"
    skeleton.write_text(SKELETON)
    code = run(["lean", "scan", "--skeleton", str(skeleton), str(path)])
    out = capsys.readouterr().out
    if path.parent.name == "clean":
        blocking = [line for line in out.splitlines() if "(advisory)" not in line]
        # a clean file may still differ from this one skeleton (a helper, another statement)
        assert not [b for b in blocking if "command-not-allowed" in b or "meta-code" in b]
    else:
        rule, line = _expected(path)
        assert code == 1 and f":{line}:" in out and rule in out, out

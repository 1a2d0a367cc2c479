"""Hostile and broken drafts: the pure parts never raise, and generate nothing unreadable."""

import random

import pytest

from paperlint.faithful.junk import junk_assignments
from paperlint.faithful.ladder import rung_candidate
from paperlint.faithful.lints import lint_statement
from paperlint.faithful.probe import probe_statement
from paperlint.faithful.statement import parse_statement
from paperlint.records.faithfulness import LadderRung
from tests.faithful.conftest import CONTEXT

PIECES = [
    "theorem", "t", "(", ")", "{", "}", "[", "]", "⦃", "⦄", ":", ":=", "x", "h", "ℕ", "ℝ",
    "-", "/", "∃", "!", ",", "=", "≤", "by", "sorry", "/-", "-/", "--", '"', "'", "«", "»",
    "sSup", "True", "def", "∀", "\n", " ", "Type*", ".{u}", "∑", "∈", "range", "0", "1",
]  # fmt: skip


@pytest.mark.parametrize("seed", range(200))
def test_random_token_soup_never_raises(seed):
    rng = random.Random(seed)
    text = " ".join(rng.choice(PIECES) for _ in range(rng.randint(1, 40)))
    lint_statement(text, definitions=[text], tex=text)
    statement = parse_statement(text)
    if statement is not None:
        junk_assignments(statement)
        rung_candidate(LadderRung.CONVERT_2, statement, statement, "n")
        reparsed = parse_statement(statement.theorem("again", "sorry"))
        assert reparsed is not None and reparsed.conclusion == statement.conclusion


def test_a_draft_smuggling_commands_is_refused_before_lean(tmp_path):
    from paperlint.lean.replay import ReplayVerifier

    # A trailing command is not part of the declaration: no candidate carries it.
    evil = 'theorem t (x : ℕ) : x = x := by\n  sorry\n#eval IO.println "hi"'
    result = probe_statement(ReplayVerifier(tmp_path), CONTEXT, evil, timeout_s=1)
    assert result.attempts and not any("#eval" in a.candidate for a in result.attempts)
    # Inside the statement it is embedded, and the verifier's refusal scan stops it.
    inside = "theorem t (h : (by native_decide : 2 + 2 = 4)) : True := sorry"
    refused = probe_statement(ReplayVerifier(tmp_path), CONTEXT, inside, timeout_s=1)
    assert refused.attempts and all(a.code.value == "refused" for a in refused.attempts)
    assert not refused.refuted

"""Prompt craft (issue #13): the refused constructs, attempts, setting, decisions last."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperlint.lean import hygiene_rules
from paperlint.prover.prompt import (
    premise_query,
    refused_constructs,
    summarise_failures,
    system_prompt,
    user_prompt,
)

TEMPLATES = Path(__file__).resolve().parents[2] / "paperlint" / "agents" / "templates"
TABLES = {
    "words": list(hygiene_rules.WORDS),
    "attributes": [f"@[{a}]" for a in hygiene_rules.ATTRIBUTES],
    "components": list(hygiene_rules.COMPONENTS),
    "hash commands": list(hygiene_rules.HASH_EFFECTS),
}


@pytest.mark.parametrize("table", TABLES)
def test_the_prover_template_lists_every_refused_construct(table: str) -> None:
    text = (TEMPLATES / "prover.j2").read_text(encoding="utf-8")
    missing = [c for c in TABLES[table] if f"`{c}`" not in text]
    assert not missing, f"prover.j2 does not list the refused {table}: {missing}"


def test_the_tool_loop_prompt_reads_the_scan_tables() -> None:
    listed = refused_constructs()
    assert all(f"`{w}`" in listed for w in hygiene_rules.WORDS)
    assert "```tool search" not in system_prompt(native=True)
    assert "```tool search" in system_prompt(native=False)
    assert system_prompt(native=True).index("Rules:") < system_prompt(native=True).index(
        "Decide last"
    )


def test_failed_attempts_keep_their_numbers_and_are_summarised() -> None:
    text = summarise_failures(
        [{"attempt": 3, "tried": "linarith", "error": "linarith failed", "goal": "⊢ a ≤ b"}]
    )
    assert text == "- attempt 3: tried linarith; error: linarith failed; goal: ⊢ a ≤ b"


def test_the_first_prompt_carries_setting_premises_and_automation() -> None:
    text = user_prompt(
        obligation_id="s1",
        skeleton="theorem t : True := by\n  sorry",
        step_text="trivially true",
        setting="Throughout, X is a real random variable.",
        premise_text="trivial : True",
        automation="automation tried and failed: `grind` (lean_error)",
    )
    assert text.index("setting") < text.index("step") < text.index("Declarations that may help")
    assert "```lean\ntheorem t : True" in text  # Lean in a fenced block, not a JSON string


def test_premise_query_takes_the_statements_constants_and_the_steps_words() -> None:
    query = premise_query("theorem t (x : ℝ) : 0 < Real.exp x := by sorry", "exp is positive")
    assert "Real.exp" in query and "positive" in query and "sorry" not in query.split()

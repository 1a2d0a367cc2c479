"""The fenced-block reply format (paperlint.agents.fences), hostile cases first."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paperlint.agents.fences import split_reply
from paperlint.agents.outputs import DraftOutput, GateOutput, IssueRuling, ProverOutput
from paperlint.agents.parsing import InvalidOutput, parse_output

LEAN = (
    'theorem main (x : ℝ) : 0 < x ^ 2 + 1 := by\n  -- \\frac{1}{2}, "quoted", \\beta\n  positivity'
)
FIELDS = ["object_class", "quantifier_order", "parameter_domains", "codomain", "hypotheses",
          "conclusion"]  # fmt: skip


def fence(body: str, lang: str = "lean", ticks: str = "```") -> str:
    return f"{ticks}{lang}\n{body}\n{ticks}"


def prover(text: str) -> ProverOutput:
    out = parse_output("prover", text)
    assert isinstance(out, ProverOutput)
    return out


def test_one_lean_block_fills_the_main_field() -> None:
    text = '{"notes": "by positivity"}\n\n' + fence(LEAN)
    out = prover(text)
    assert out.lean == LEAN and out.notes == "by positivity"


def test_reference_keeps_backslashes_and_quotes_exactly() -> None:
    out = prover(fence('{"lean": "@lean:1", "gives_up": false}', "json") + "\n" + fence(LEAN))
    assert out.lean == LEAN and "\\frac{1}{2}" in out.lean and '"quoted"' in out.lean


def test_several_blocks_by_reference_in_a_drafter_answer() -> None:
    statement = "theorem main (n : ℕ) : n ≤ n ^ 2 := by sorry"
    definition = "def sq (n : ℕ) : ℕ := n ^ 2"
    step = "theorem s1 (n : ℕ) : n ≤ n * n := by sorry"
    data = {
        "lean_name": "main",
        "statement": "@lean:2",
        "definitions": ["@lean:1"],
        "fidelity": dict.fromkeys(FIELDS, "x"),
        "obligations": [{"id": "s1", "lean": "@lean:3"}],
        "conditions": [{"name": "h", "lean_type": "@lean:4", "kind": "asserted"}],
    }
    blocks = [definition, statement, step, "0 < n"]
    text = json.dumps(data) + "\n" + "\n".join(fence(b) for b in blocks)
    out = parse_output("drafter", text)
    assert isinstance(out, DraftOutput)
    assert out.statement == statement and out.definitions == [definition]
    assert out.obligations[0].lean == step and out.conditions[0].lean_type == "0 < n"


def test_several_blocks_without_a_reference_is_refused_with_the_fix() -> None:
    with pytest.raises(InvalidOutput, match='set `lean` to "@lean:N"'):
        prover(
            '{"notes": "two tries"}\n' + fence("theorem a : True := trivial") + "\n" + fence(LEAN)
        )


def test_unreferenced_extra_blocks_are_ignored() -> None:
    text = '{"lean": "@lean:2"}\n' + fence("-- scratch") + "\n" + fence(LEAN)
    assert prover(text).lean == LEAN


def test_reference_out_of_range_names_the_field() -> None:
    with pytest.raises(
        InvalidOutput, match=r"`lean` refers to ```lean block 3, but the answer has 1"
    ):
        prover('{"lean": "@lean:3"}\n' + fence(LEAN))


def test_unclosed_lean_fence_is_a_cut_off_not_a_proof() -> None:
    text = '{"lean": "@lean:1"}\n```lean\ntheorem main : True := by\n  exact'
    with pytest.raises(InvalidOutput, match="never closed.*cut off"):
        prover(text)


def test_unclosed_lean_fence_without_reference_is_refused_too() -> None:
    with pytest.raises(InvalidOutput, match="never closed"):
        prover('{"notes": ""}\n```lean\ntheorem main : True := by')


def test_unclosed_json_fence_says_cut_off() -> None:
    with pytest.raises(InvalidOutput, match="line 1 is never closed.*cut off"):
        prover('```json\n{"lean": "theorem main : True := triv')


def test_fence_inside_a_json_string_is_text() -> None:
    notes = "use ```lean blocks``` like\n```lean\nthis\n```"
    text = json.dumps({"lean": LEAN, "notes": notes}, indent=2)
    out = prover(text)
    assert out.notes == notes and out.lean == LEAN
    assert split_reply(text).blocks == ()


def test_inline_triple_backticks_in_prose_do_not_open_a_block() -> None:
    text = "Here ```lean x``` is inline.\n```lean x```\n" + json.dumps({"lean": LEAN})
    assert split_reply(text).blocks == ()
    assert prover(text).lean == LEAN


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_crlf_and_cr_give_the_same_lean(newline: str) -> None:
    text = '{"lean": "@lean:1",\n "notes": "ok"}\n' + fence(LEAN)
    assert prover(text.replace("\n", newline)).lean == LEAN


def test_longer_fence_keeps_inner_triple_backticks() -> None:
    body = "/-- Example:\n```lean\n#eval 1\n```\n-/\n" + LEAN
    out = prover('{"lean": "@lean:1"}\n' + fence(body, ticks="````"))
    assert out.lean == body


@pytest.mark.parametrize("opening", ["~~~lean", "```lean4", "```Lean", "   ```lean", "``` lean"])
def test_fence_spellings(opening: str) -> None:
    closing = "~~~" if opening.startswith("~") else "```"
    text = '{"lean": "@lean:1"}\n' + f"{opening}\n{LEAN}\n{closing}"
    assert prover(text).lean == LEAN


def test_four_space_indent_is_not_a_fence() -> None:
    assert split_reply("    ```lean\n    x\n    ```").blocks == ()


def test_structure_braces_in_lean_are_not_the_json() -> None:
    lean = "theorem main : (⟨1, 2⟩ : ℕ × ℕ).1 = 1 := by\n  exact { }"
    text = fence(lean) + '\nand then {"lean": "@lean:1", "notes": "{x | x > 0}"} done.'
    out = prover(text)
    assert out.lean == lean and out.notes == "{x | x > 0}"


def test_json_value_wins_over_blocks() -> None:
    assert prover(json.dumps({"lean": LEAN}) + "\n" + fence("-- other")).lean == LEAN


def test_reference_outside_lean_fields_stays_text() -> None:
    out = prover(json.dumps({"lean": "@lean:1", "notes": "@lean:1"}) + "\n" + fence(LEAN))
    assert out.notes == "@lean:1" and out.lean == LEAN
    gate = parse_output(
        "gate",
        json.dumps({"decision": "BLOCK", "fields": [], "reasons": ["@lean:1"]})
        + "\n"
        + fence(LEAN),
    )
    assert isinstance(gate, GateOutput) and gate.reasons == ["@lean:1"]


def test_counterexample_from_a_block() -> None:
    counter = "theorem refute : ¬ ∀ n : ℕ, n < 5 := by\n  push_neg\n  exact ⟨5, le_rfl⟩"
    data = {"is_issue": True, "issue_class": "ERROR", "counterexample": "@lean:1",
            "counterexample_name": "refute"}  # fmt: skip
    out = parse_output("issue_checker", json.dumps(data) + "\n" + fence(counter))
    assert isinstance(out, IssueRuling) and out.counterexample == counter


_LEAN_TEXT = st.text(
    alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="\r`~"),
    max_size=200,
).map(lambda s: s.strip("\n"))


@given(_LEAN_TEXT, st.sampled_from(["\n", "\r\n"]))
def test_any_lean_text_round_trips(lean: str, newline: str) -> None:
    text = ('{"lean": "@lean:1"}\n' + fence(lean)).replace("\n", newline)
    assert prover(text).lean == lean.replace("\r\n", "\n")

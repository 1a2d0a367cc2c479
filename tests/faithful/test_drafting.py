from paperlint.agents.inputs import DrafterInputs
from paperlint.faithful.drafting import INDEPENDENT_FIELDS, independent_inputs

# What the first round leaves behind that a second drafter must never see.
FIRST_ROUND_FIELDS = {"failed_attempts"}


def test_every_drafter_field_is_decided():
    assert set(DrafterInputs.model_fields) == INDEPENDENT_FIELDS | FIRST_ROUND_FIELDS


def test_the_second_draft_never_sees_the_first():
    first = DrafterInputs.model_validate(
        {
            "result": {"id": "lem:a", "kind": "lemma", "statement": "For $x \\le y$ …"},
            "lean_context": "import Mathlib",
            "failed_attempts": [
                {"lean": "theorem first_draft (x : ℕ) : x = x := sorry", "feedback": "gate: no"}
            ],
        }
    )
    second = independent_inputs(first)
    assert second.failed_attempts == []
    assert "first_draft" not in second.model_dump_json()
    assert second.result == first.result and second.lean_context == "import Mathlib"

import json

import pytest

from paperlint.agents.outputs import ProverOutput
from paperlint.agents.parsing import InvalidOutput, extract_json, parse_output

ANSWER = {"lean": "lemma s1 : True := trivial", "notes": "```lean\nnot a fence\n```"}


@pytest.mark.parametrize(
    "text",
    [
        json.dumps(ANSWER),
        "```json\n" + json.dumps(ANSWER) + "\n```",
        "Sure:\n```\n" + json.dumps(ANSWER, indent=2) + "\n```\nDone.",
        "```lean\nlemma s1 : True := trivial\n```\nand the answer:\n```json\n"
        + json.dumps(ANSWER)
        + "\n```",
        "The answer is " + json.dumps(ANSWER) + " as requested.",
    ],
)
def test_json_is_found_in_common_wrappings(text):
    output = parse_output("prover", text)
    assert isinstance(output, ProverOutput) and output.notes == ANSWER["notes"]


def test_not_json_says_so():
    with pytest.raises(InvalidOutput, match="not valid JSON"):
        parse_output("prover", "I could not do it.")


def test_schema_errors_name_the_field():
    with pytest.raises(InvalidOutput, match=r"decision: Input should be 'PASS' or 'BLOCK'"):
        parse_output("gate", '{"decision": "OK", "fields": []}')


def test_extra_field_is_refused():
    with pytest.raises(InvalidOutput, match="verdict"):
        parse_output("reviewer", '{"confirms": true, "explanation": "x", "verdict": "ERROR"}')


def test_array_is_not_an_object():
    assert extract_json("[1, 2]") == "[1, 2]"
    with pytest.raises(InvalidOutput, match="JSON object"):
        parse_output("prover", "[1, 2]")

"""Replies whose JSON strings hold LaTeX or Lean the model did not escape, and JSON followed
by prose: parsed to exactly what the model meant."""

import json

import pytest

from paperlint.agents.outputs import FidelityFields
from paperlint.agents.parsing import InvalidOutput, extract_json, parse_output, repair_backslashes

LATEX = [r"\frac{a}{b}", r"\beta", r"\to", r"\rho", r"\neq", r"\theta", r"\nabla", r"\sum_i"]


@pytest.mark.parametrize("command", LATEX)
def test_an_unescaped_latex_command_survives_exactly(command):
    raw = '{"quote": "$x ' + command + ' y$"}'
    assert json.loads(repair_backslashes(raw))["quote"] == f"$x {command} y$"


def test_real_escapes_are_kept():
    raw = r'{"a": "line\nnext\ttab \"q\" \\alpha \u00e9 \/"}'
    assert json.loads(repair_backslashes(raw)) == json.loads(raw)


TRICKY = ["", "\\", "\\frac", "\n", 'a"b', '\\"', "\u2192 ∀", "\x00\x1f", "\\n\\t", "{x | x>0}"]


@pytest.mark.parametrize("text", TRICKY)
def test_correctly_escaped_json_is_never_changed(text):
    raw = json.dumps({"t": text})
    assert json.loads(repair_backslashes(raw)) == {"t": text}


def test_text_outside_strings_is_untouched():
    assert repair_backslashes(r'{"a": 1} \frac') == r'{"a": 1} \frac'


def test_json_followed_by_a_sentence_with_braces_is_read():
    text = '{"steps": [{"id": "s1", "text": "t"}]}\nNote: the set {x | x > 0} is open.'
    assert json.loads(extract_json(text)) == {"steps": [{"id": "s1", "text": "t"}]}
    assert parse_output("architect", text).steps[0].id == "s1"


def test_prose_with_quotes_before_the_json_does_not_flip_the_repair():
    text = 'Here is my "answer": {"steps": [{"id": "s1", "text": "$\\frac{1}{2}$"}]}'
    assert parse_output("architect", text).steps[0].text == r"$\frac{1}{2}$"


FIELDS = list(FidelityFields.model_fields)


def test_a_gate_pass_without_every_field_ok_is_refused():
    with pytest.raises(InvalidOutput, match="every fidelity field"):
        parse_output("gate", '{"decision": "PASS", "fields": []}')
    fields = [{"field": f, "ok": f != "codomain"} for f in FIELDS]
    with pytest.raises(InvalidOutput, match="codomain"):
        parse_output("gate", json.dumps({"decision": "PASS", "fields": fields}))
    fields = [{"field": f, "ok": True} for f in FIELDS]
    assert parse_output("gate", json.dumps({"decision": "PASS", "fields": fields}))
    # a BLOCK may name only what is wrong
    assert parse_output("gate", '{"decision": "BLOCK", "fields": []}')

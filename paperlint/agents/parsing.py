"""Turning a model's raw text into a validated output model, or a message saying what is wrong.

The message goes back to the model in a repair request, so it names the field and the problem
in plain words and stays short.
"""

from __future__ import annotations

import json
import re

from pydantic import BaseModel, ValidationError

from paperlint.agents.outputs import OUTPUT_MODELS

_FENCE = re.compile(r"```[A-Za-z0-9_-]*[ \t]*\r?\n(.*?)\r?\n?```", re.DOTALL)


class InvalidOutput(ValueError):
    """The model's answer is not valid JSON for its task's schema."""


def parse_output(task: str, text: str) -> BaseModel:
    """The task's output model parsed from `text`; raises InvalidOutput with a repair hint."""
    candidate = extract_json(text)
    try:
        data = json.loads(candidate)
    except json.JSONDecodeError as exc:
        raise InvalidOutput(f"the answer is not valid JSON ({exc.msg} at char {exc.pos})") from None
    if not isinstance(data, dict):
        raise InvalidOutput(f"the answer must be a JSON object, not {type(data).__name__}")
    try:
        return OUTPUT_MODELS[task].model_validate(data)
    except ValidationError as exc:
        raise InvalidOutput(describe_errors(exc)) from None


def extract_json(text: str) -> str:
    """The JSON part of an answer: a fenced block if there is one, else the outermost braces.

    Models often wrap JSON in ```json fences or add a sentence; both are tolerated, because the
    content is still checked against the schema.
    """
    stripped = text.strip()
    if stripped.startswith("{") and stripped.endswith("}"):
        return stripped
    fenced = _FENCE.search(stripped)
    if fenced:
        return fenced.group(1).strip()
    start, end = stripped.find("{"), stripped.rfind("}")
    if 0 <= start < end:
        return stripped[start : end + 1]
    return stripped


def describe_errors(exc: ValidationError, *, limit: int = 8) -> str:
    lines = []
    for error in exc.errors()[:limit]:
        where = ".".join(str(part) for part in error["loc"]) or "(top level)"
        lines.append(f"- {where}: {error['msg']}")
    more = len(exc.errors()) - limit
    if more > 0:
        lines.append(f"- ... and {more} more")
    return "the answer does not match the schema:\n" + "\n".join(lines)

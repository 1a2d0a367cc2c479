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
    """The JSON part of an answer: the first candidate that parses as a JSON object.

    Candidates, in order: the whole answer, each fenced block, the outermost braces. Models
    often wrap JSON in ```json fences, put a Lean block before it, or add a sentence; all are
    tolerated, because the content is still checked against the schema. With no parsable
    candidate, the first one is returned so the error message is about what the model sent.
    """
    stripped = text.strip()
    candidates = [stripped] if stripped.startswith("{") else []
    candidates += [match.group(1).strip() for match in _FENCE.finditer(stripped)]
    start, end = stripped.find("{"), stripped.rfind("}")
    if 0 <= start < end:
        candidates.append(stripped[start : end + 1])
    for candidate in candidates:
        if _is_json_object(candidate):
            return candidate
    return candidates[0] if candidates else stripped


def _is_json_object(text: str) -> bool:
    try:
        return isinstance(json.loads(text), dict)
    except json.JSONDecodeError:
        return False


def describe_errors(exc: ValidationError, *, limit: int = 8) -> str:
    lines = []
    for error in exc.errors()[:limit]:
        where = ".".join(str(part) for part in error["loc"]) or "(top level)"
        lines.append(f"- {where}: {error['msg']}")
    more = len(exc.errors()) - limit
    if more > 0:
        lines.append(f"- ... and {more} more")
    return "the answer does not match the schema:\n" + "\n".join(lines)

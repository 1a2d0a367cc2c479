"""How tools reach a model: litellm tool schemas, and a text protocol for models without them.

Native (OpenAI-style, through litellm's `tools=` / `tool_choice="auto"`): the assistant message
carries `tool_calls` [{"id", "type": "function", "function": {"name", "arguments": "<JSON>"}}]
and each result goes back as {"role": "tool", "tool_call_id": id, "content": text}.

Text protocol (documented in the system prompt; for models where
`litellm.supports_function_calling` is false, or when configured): the model writes each call
as a fenced block whose info string is `tool NAME` and whose body is the JSON arguments, e.g.

    ```tool search
    {"query": "max of two reals is at least the left one"}
    ```

and gives up with a ```tool give_up``` block ({"reason": ..., "suspected_problem": true}).
Results come back in one user message, one `[result N: NAME]` section per call, in order.
A reply with no call at all is answered with a reminder, and costs a turn like any other.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from paperlint.prover.tools import ARGS, DESCRIPTIONS

GIVE_UP = "give_up"
_BLOCK = re.compile(r"```tool[ \t]+([A-Za-z_]+)[ \t]*\n(.*?)```", re.S)


class GiveUpArgs(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    reason: str = Field(min_length=1, max_length=4000)
    suspected_problem: bool = Field(
        description="true: the paper's step does not hold as justified; false: no proof found"
    )


class ToolCall(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    malformed: str | None = None  # the arguments were not a JSON object: why


def tool_schemas() -> list[dict[str, Any]]:
    """litellm/OpenAI `tools=`: one function per tool, parameters from the typed arguments."""
    out = []
    models: dict[str, type[BaseModel]] = {**ARGS, GIVE_UP: GiveUpArgs}
    for name, model in models.items():
        schema = model.model_json_schema()
        schema.pop("title", None)
        description = DESCRIPTIONS.get(
            name, "Stop: say why, and whether the paper's step itself seems wrong."
        )
        out.append(
            {
                "type": "function",
                "function": {"name": name, "description": description, "parameters": schema},
            }
        )
    return out


def parse_arguments(raw: str | dict[str, Any] | None) -> tuple[dict[str, Any], str | None]:
    if isinstance(raw, dict):
        return raw, None
    try:
        value = json.loads(raw or "{}")
    except ValueError as exc:
        return {}, f"arguments are not JSON: {exc}"
    if not isinstance(value, dict):
        return {}, "arguments are not a JSON object"
    return value, None


def parse_text_calls(text: str, *, turn: int) -> list[ToolCall]:
    calls = []
    for number, match in enumerate(_BLOCK.finditer(text), start=1):
        arguments, problem = parse_arguments(match.group(2).strip())
        calls.append(
            ToolCall(
                id=f"t{turn}.{number}", name=match.group(1), arguments=arguments, malformed=problem
            )
        )
    return calls


def text_protocol_help() -> str:
    lines = [
        "Call a tool by writing a fenced block whose info string is `tool NAME` and whose body "
        "is a JSON object of its arguments. Several blocks in one reply run in order.",
        "",
    ]
    for schema in tool_schemas():
        function = schema["function"]
        params = ", ".join(function["parameters"].get("properties", {}))
        lines.append(f"- {function['name']}({params}): {function['description']}")
    lines += ["", "Example:", "```tool search", '{"query": "exponential is positive"}', "```"]
    return "\n".join(lines)


def text_results(names: Sequence[str], texts: Sequence[str]) -> str:
    return "\n\n".join(
        f"[result {n}: {name}]\n{text}"
        for n, (name, text) in enumerate(zip(names, texts, strict=True), 1)
    )

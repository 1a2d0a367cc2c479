"""The model edge of the tool loop: one turn = one paid completion, with or without native tools.

`ToolModel.turn(model, messages, tools=..., metadata=...)` returns a `ToolTurn`: the reply's
text, its tool calls and its usage. `LiteLLMToolModel` calls `litellm.completion` with
`tools=` and `tool_choice="auto"` when the model supports function calling (or `mode="native"`
forces it), and otherwise sends no tools and reads calls from the text protocol
(`paperlint.prover.protocol`). `ScriptedToolModel` serves recorded turns keyed by role,
result, obligation, attempt and turn: the replay double, labelled as such.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, NamedTuple, Protocol

from pydantic import BaseModel, ConfigDict

from paperlint.agents.client import completion_cost, import_litellm, redact, transient_errors
from paperlint.agents.faults import FaultKind, classify, stop_error
from paperlint.errors import InputError, ModelError
from paperlint.prover.protocol import ToolCall, parse_arguments, parse_text_calls
from paperlint.store import append_line

Mode = Literal["auto", "native", "text"]
TURNS_FILE = "prover-turns.jsonl"


class TurnKey(NamedTuple):
    role: str
    result: str
    obligation: str
    attempt: int
    turn: int

    def describe(self) -> str:
        return "/".join(str(part) for part in self)


class ToolTurn(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str = ""
    calls: tuple[ToolCall, ...] = ()
    native: bool = True  # the calls came as native tool calls (else: the text protocol)
    tokens_in: int | None = None
    tokens_out: int | None = None
    cost_usd: float | None = None
    model: str | None = None
    replay: bool = False


class ToolModel(Protocol):
    replay: bool

    def turn(
        self,
        model: str,
        messages: Sequence[Mapping[str, Any]],
        *,
        tools: Sequence[Mapping[str, Any]],
        key: TurnKey,
    ) -> ToolTurn: ...

    def native(self, model: str) -> bool:
        """Whether `model` gets native tools (else the text protocol)."""
        ...


class LiteLLMToolModel:
    replay = False

    def __init__(
        self,
        *,
        mode: Mode = "auto",
        request_timeout_s: float = 600.0,
        api_base: str | None = None,
        api_key: str | None = None,
    ) -> None:
        self._mode = mode
        self._timeout = request_timeout_s
        self._api_base = api_base
        self._api_key = api_key

    def native(self, model: str) -> bool:
        if self._mode != "auto":
            return self._mode == "native"
        litellm = import_litellm()
        try:
            return bool(litellm.supports_function_calling(model=model))
        except Exception:  # an unknown model: litellm raises; the text protocol always works
            return False

    def turn(
        self,
        model: str,
        messages: Sequence[Mapping[str, Any]],
        *,
        tools: Sequence[Mapping[str, Any]],
        key: TurnKey,
    ) -> ToolTurn:
        litellm = import_litellm()
        native = self.native(model)
        extra: dict[str, Any] = {"tools": list(tools), "tool_choice": "auto"} if native else {}
        if self._api_base:
            extra["api_base"] = self._api_base
        if self._api_key:
            extra["api_key"] = self._api_key
        try:
            response = litellm.completion(
                model=model,
                messages=[dict(m) for m in messages],
                metadata={"paperlint": key._asdict()},
                num_retries=0,
                max_retries=0,
                timeout=self._timeout,
                **extra,
            )
        except transient_errors():
            raise
        except Exception as exc:  # litellm maps provider failures to its own classes
            fault = classify(exc, litellm=litellm)
            if fault is not None and fault.kind in (FaultKind.AUTH, FaultKind.CONFIG):
                # a bad key or model name is no fault of the model: resumable, the fix named
                raise stop_error(fault, model, redact(str(exc)), None) from None
            raise ModelError(f"model {model} failed: {redact(str(exc))}") from None
        return to_turn(litellm, response, native=native, turn=key.turn, model=model)


def to_turn(litellm: Any, response: Any, *, native: bool, turn: int, model: str) -> ToolTurn:
    message = response.choices[0].message
    text = message.content or ""
    calls: list[ToolCall] = []
    for number, call in enumerate(getattr(message, "tool_calls", None) or (), start=1):
        arguments, problem = parse_arguments(call.function.arguments)
        calls.append(
            ToolCall(
                id=str(call.id or f"c{turn}.{number}"),
                name=str(call.function.name or ""),
                arguments=arguments,
                malformed=problem,
            )
        )
    if not calls:
        calls = parse_text_calls(text, turn=turn)
        native = native and not calls
    usage = getattr(response, "usage", None)
    return ToolTurn(
        text=text,
        calls=tuple(calls),
        native=native,
        tokens_in=getattr(usage, "prompt_tokens", None),
        tokens_out=getattr(usage, "completion_tokens", None),
        cost_usd=completion_cost(litellm, response, model=model),
        model=model,
    )


class ScriptedToolModel:
    """Recorded turns by key; an unrecorded turn is a ModelError, never an invented reply."""

    replay = True

    def __init__(self, turns: Mapping[TurnKey, ToolTurn], *, native: bool = True) -> None:
        self._turns = dict(turns)
        self._native = native
        self.asked: list[TurnKey] = []

    def native(self, model: str) -> bool:
        return self._native

    def turn(
        self,
        model: str,
        messages: Sequence[Mapping[str, Any]],
        *,
        tools: Sequence[Mapping[str, Any]],
        key: TurnKey,
    ) -> ToolTurn:
        self.asked.append(key)
        recorded = self._turns.get(key)
        if recorded is None:
            raise ModelError(f"no recorded prover turn for {key.describe()}")
        return recorded.model_copy(update={"replay": True})

    @classmethod
    def load(cls, path: Path) -> ScriptedToolModel:
        turns: dict[TurnKey, ToolTurn] = {}
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
                key = TurnKey(**entry["key"])
                turns[key] = ToolTurn.model_validate(entry["reply"])
            except (ValueError, KeyError, TypeError) as exc:
                raise InputError(f"unreadable prover turn: {exc}", path=path, line=number) from exc
        return cls(turns)


class RecordingToolModel:
    """Wraps a live tool model and appends each turn to `<dir>/prover-turns.jsonl`, in the
    shape `ScriptedToolModel.load` replays (`check --record DIR`)."""

    def __init__(self, inner: ToolModel, folder: Path) -> None:
        self.inner = inner
        self.replay = inner.replay
        self.path = folder / TURNS_FILE

    def native(self, model: str) -> bool:
        return self.inner.native(model)

    def turn(
        self,
        model: str,
        messages: Sequence[Mapping[str, Any]],
        *,
        tools: Sequence[Mapping[str, Any]],
        key: TurnKey,
    ) -> ToolTurn:
        reply = self.inner.turn(model, messages, tools=tools, key=key)
        entry = {"key": key._asdict(), "reply": reply.model_dump(mode="json"), "note": "recorded"}
        append_line(self.path, json.dumps(entry, ensure_ascii=False, sort_keys=True))
        return reply

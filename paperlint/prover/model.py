"""The model edge of the tool loop: one turn = one paid completion, with or without native tools.

`ToolModel.turn(model, messages, tools=..., key=...)` returns a `ToolTurn`: the reply's text, its
tool calls and its usage. `AgentTurns` is the one implementation: every turn goes through the
agents' model client (`paperlint.agents.runner.AgentRunner.turn`), so a turn has the same
retries and Retry-After waits, the same charging under the budget lock, the same role headers,
limits and prices, and the same transcript recording and replay keying as every other model
call (issue #27); a replay serves recorded turns from `transcript.jsonl` (task `prover_turn`,
keyed by result, obligation, attempt and turn). Native tool calls when the model takes them
(`native`), else the text protocol (`paperlint.prover.protocol`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple, Protocol

from pydantic import BaseModel, ConfigDict

from paperlint.agents.client import Completion
from paperlint.agents.runner import TURN_TASK, AgentCall, AgentRunner
from paperlint.prover.protocol import ToolCall, parse_arguments, parse_text_calls


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


Keep = Callable[[ToolTurn], None]
"""Told a turn's reply as soon as it is in, before the call is reported (the loop logs it)."""


class ToolModel(Protocol):
    replay: bool

    def turn(
        self,
        model: str,
        messages: Sequence[Mapping[str, Any]],
        *,
        tools: Sequence[Mapping[str, Any]],
        key: TurnKey,
        keep: Keep,
    ) -> ToolTurn: ...

    def native(self, model: str) -> bool:
        """Whether `model` gets native tools (else the text protocol)."""
        ...


class AgentTurns:
    """The turns of one prove action through the agents' client. The first turn it asks was
    charged by the action's start (`action_started`); each later one is charged before it is
    sent (a resumed loop's recorded turns are not asked again, so not charged again)."""

    def __init__(self, turns: AgentRunner) -> None:
        self._turns = turns
        self.replay = turns.replay
        self.asked = 0
        self._fits: dict[str, str] = {}
        """A model whose context window the conversation outgrew -> the later model of the
        ladder that took it (`AgentRunner.turn` fell back): later turns go straight there."""

    def native(self, model: str) -> bool:
        return self._turns.native(model)

    def turn(
        self,
        model: str,
        messages: Sequence[Mapping[str, Any]],
        *,
        tools: Sequence[Mapping[str, Any]],
        key: TurnKey,
        keep: Keep,
    ) -> ToolTurn:
        call = AgentCall(
            task=TURN_TASK,
            role=key.role,
            result=key.result,
            obligation=key.obligation,
            attempt=key.attempt,
            charged=self.asked == 0,
        )
        self.asked += 1
        asked = self._fits.get(model, model)
        sent = [dict(message) for message in messages]
        replies: list[ToolTurn] = []

        def kept(done: Completion) -> None:
            replies.append(to_turn(done, native=bool(tools), turn=key.turn, model=asked))
            keep(replies[0].model_copy(update={"replay": self.replay}))

        self._turns.turn(call, model=asked, messages=sent, tools=tools, turn=key.turn, keep=kept)
        took = replies[0].model
        if not self.replay and took is not None and took != asked:
            self._fits[model] = took
        return replies[0].model_copy(update={"replay": self.replay})


def to_turn(done: Completion, *, native: bool, turn: int, model: str) -> ToolTurn:
    """The loop's view of a reply: its native calls, else the text protocol's calls."""
    calls: list[ToolCall] = []
    for number, call in enumerate(done.tool_calls, start=1):
        arguments, problem = parse_arguments(call.arguments)
        calls.append(
            ToolCall(
                id=call.id or f"c{turn}.{number}",
                name=call.name,
                arguments=arguments,
                malformed=problem,
            )
        )
    if not calls:
        calls = parse_text_calls(done.text, turn=turn)
        native = native and not calls
    return ToolTurn(
        text=done.text,
        calls=tuple(calls),
        native=native,
        tokens_in=done.tokens_in,
        tokens_out=done.tokens_out,
        cost_usd=done.cost_usd,
        model=done.model or model,
    )

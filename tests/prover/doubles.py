"""Scripted stand-ins for the tool loop's edges, for tests that drive the loop or a prove step
without the engine's opening: turns by key, probe answers by command. (A run's own replay is
the model client's transcript and the verifier's `lean.jsonl`, never these.)"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from paperlint.agents.client import Completion, RawToolCall
from paperlint.agents.runner import AgentCall
from paperlint.errors import InputError, ModelError
from paperlint.lean.verifier import FailureCode, LeanCheck, LeanContext, Outcome
from paperlint.prover.model import Keep, ToolTurn, TurnKey


class ScriptedToolModel:
    """A `ToolModel` of recorded turns by key; an unrecorded turn is a ModelError."""

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
        keep: Keep = lambda reply: None,
    ) -> ToolTurn:
        self.asked.append(key)
        recorded = self._turns.get(key)
        if recorded is None:
            raise ModelError(f"no recorded prover turn for {key.describe()}")
        reply = recorded.model_copy(update={"replay": True})
        keep(reply)
        return reply

    @classmethod
    def load(cls, path: Path) -> ScriptedToolModel:
        """`{"key": {TurnKey fields}, "reply": ToolTurn}` per line (fixtures/prover_replay)."""
        turns: dict[TurnKey, ToolTurn] = {}
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
                turns[TurnKey(**entry["key"])] = ToolTurn.model_validate(entry["reply"])
            except (ValueError, KeyError, TypeError) as exc:
                raise InputError(f"unreadable prover turn: {exc}", path=path, line=number) from exc
        return cls(turns)


class ScriptedTurns:
    """The model client's `Turns` (what `AgentRunner` gives a prove step), serving scripted
    turns as completions: what the engine's tool loop sees of a replayed model."""

    replay = True

    def __init__(self, turns: Mapping[TurnKey, ToolTurn], *, native: bool = True) -> None:
        self._turns = dict(turns)
        self._native = native
        self.asked: list[TurnKey] = []
        self.charged: list[bool] = []

    def native(self, model: str) -> bool:
        return self._native

    def turn(
        self,
        call: AgentCall,
        *,
        model: str,
        messages: Sequence[Mapping[str, Any]],
        tools: Sequence[Mapping[str, Any]],
        turn: int,
        keep: Callable[[Completion], None],
    ) -> Completion:
        key = TurnKey(call.role, str(call.result), str(call.obligation), call.attempt, turn)
        self.asked.append(key)
        self.charged.append(call.charged)
        recorded = self._turns.get(key)
        if recorded is None:
            raise ModelError(f"no recorded prover turn for {key.describe()}")
        done = Completion(
            text=recorded.text,
            tokens_in=recorded.tokens_in,
            tokens_out=recorded.tokens_out,
            cost_usd=recorded.cost_usd,
            model=model,
            tool_calls=tuple(
                RawToolCall(c.id, c.name, json.dumps(c.arguments)) for c in recorded.calls
            ),
        )
        keep(done)
        return done


class ScriptedProbe:
    """Probe answers by (context, command): the part of the verifier the tools use."""

    is_replay = True

    def __init__(self) -> None:
        self._answers: dict[tuple[str, str, bool], dict[str, Any]] = {}
        self.asked: list[tuple[str, bool]] = []

    def add(
        self, context: LeanContext, text: str, answer: dict[str, Any], *, all_tactics: bool = False
    ) -> None:
        self._answers[(context.key(), text, all_tactics)] = answer

    def command(
        self, context: LeanContext, cmd: str, *, timeout_s: float, all_tactics: bool = False
    ) -> dict[str, Any] | LeanCheck:
        self.asked.append((cmd, all_tactics))
        answer = self._answers.get((context.key(), cmd, all_tactics))
        if answer is None:
            return LeanCheck(
                outcome=Outcome.UNAVAILABLE,
                code=FailureCode.NO_RECORDING,
                hint="no scripted probe answer for this command",
                replay=True,
            )
        return answer

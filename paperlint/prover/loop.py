"""The tool loop for one obligation: model turns, tool calls, a budget charged before use.

The loop ends when `check` accepts a candidate (ACCEPTED), when the model calls `give_up`
(GAVE_UP, with its reason and whether it suspects the paper's step), or when a budget is spent
(UNFINISHED, with which one): model turns, tool calls, wall time. Each is charged before it is
used, and the charge is an event before the work, so an interrupted loop never refunds.

Every paid reply is appended to the turn log *before* its tools run, and every tool result
after it ran (`TurnLog`, JSON lines, append-only, fsynced). A resumed loop replays the log:
recorded replies are never asked again and recorded results are reused, so no paid call is
repeated, and the loop continues from the first missing piece. Keys: role, result,
obligation, attempt, turn. A recorded *acceptance* is never reused: the log is a workspace
file, so its `check` is asked of Lean again (issue #25) and only that answer ends the loop.

Older tool results are cut to their first line in the messages sent (the last
`KEEP_FULL_TURNS` turns stay whole), so the prompt stays flat as a loop grows.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from paperlint.prover.model import ToolModel, ToolTurn, TurnKey
from paperlint.prover.protocol import (
    GIVE_UP,
    GiveUpArgs,
    ToolCall,
    text_results,
    tool_schemas,
)
from paperlint.prover.tools import ToolResult, Workbench
from paperlint.store import append_line

KEEP_FULL_TURNS = 2
NO_CALL = (
    "No tool call found in your reply. Call `check` with the complete declaration, another "
    "tool, or `give_up`."
)
Emit = Callable[[dict[str, Any]], None]


class LoopBudget(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    max_turns: int = Field(default=8, ge=1)
    max_tool_calls: int = Field(default=24, ge=1)
    max_wall_s: float = Field(default=900.0, gt=0)


class LoopStatus(StrEnum):
    ACCEPTED = "accepted"
    GAVE_UP = "gave_up"
    UNFINISHED = "unfinished"


class LoopOutcome(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    status: LoopStatus
    reason: str
    proof: str | None = None
    suspected_problem: bool = False
    turns: int = 0
    tool_calls: int = 0
    tokens_in: int = 0
    searched: tuple[str, ...] = ()  # names `search` returned during the loop
    premises_used: tuple[str, ...] = ()  # of those (and of the first prompt's), the proof's
    library_used: bool = False  # the accepted proof contains a `library` suggestion


class TurnLog:
    """`prover-turns.jsonl`: {"kind": "reply"|"result", "key": {...}, ...} per line."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def load(self, base: TurnKey) -> Recorded:
        replies: dict[int, ToolTurn] = {}
        results: dict[int, dict[int, ToolResult]] = {}
        spent = 0.0
        if not self.path.exists():
            return Recorded(replies, results, spent)
        for line in self.path.read_text(encoding="utf-8").splitlines():
            try:
                entry = json.loads(line)
                key = TurnKey(**entry["key"])
            except (ValueError, KeyError, TypeError):
                continue  # a torn last line: that piece is redone
            if key[:4] != base[:4]:
                continue
            spent += float(entry.get("elapsed_s", 0.0))
            if entry.get("kind") == "reply":
                replies[key.turn] = ToolTurn.model_validate(entry["reply"])
            elif entry.get("kind") == "result":
                by_index = results.setdefault(key.turn, {})
                by_index[int(entry["index"])] = ToolResult.model_validate(entry["result"])
        return Recorded(replies, results, spent)

    def append(self, entry: Mapping[str, Any]) -> None:
        append_line(self.path, json.dumps(entry, ensure_ascii=False, sort_keys=True))


@dataclass(frozen=True)
class Recorded:
    replies: dict[int, ToolTurn]
    results: dict[int, dict[int, ToolResult]]
    spent_s: float  # wall time the recorded pieces took: a resume does not get it back


@dataclass
class _Turn:
    assistant: dict[str, Any]
    results: list[tuple[ToolCall, ToolResult]] = field(default_factory=list)
    reminder: bool = False


def assistant_message(reply: ToolTurn) -> dict[str, Any]:
    if not reply.native or not reply.calls:
        return {"role": "assistant", "content": reply.text}
    return {
        "role": "assistant",
        "content": reply.text or None,
        "tool_calls": [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.name, "arguments": json.dumps(call.arguments)},
            }
            for call in reply.calls
        ],
    }


def _cut(text: str) -> str:
    first = text.split("\n", 1)[0]
    return first if first == text else first + " … (older result, cut)"


def messages_for(
    initial: Sequence[Mapping[str, Any]], turns: Sequence[_Turn], *, native: bool
) -> list[dict[str, Any]]:
    """The conversation sent for the next turn, older tool results cut to one line."""
    out = [dict(m) for m in initial]
    for number, turn in enumerate(turns):
        keep = number >= len(turns) - KEEP_FULL_TURNS
        out.append(turn.assistant)
        texts = [r.text if keep else _cut(r.text) for _, r in turn.results]
        if turn.reminder:
            out.append({"role": "user", "content": NO_CALL})
        elif native and turn.assistant.get("tool_calls"):
            out.extend(
                {"role": "tool", "tool_call_id": call.id, "content": text}
                for (call, _), text in zip(turn.results, texts, strict=True)
            )
        elif turn.results:
            names = [call.name for call, _ in turn.results]
            out.append({"role": "user", "content": text_results(names, texts)})
    return out


@dataclass
class ProverLoop:
    model: ToolModel
    model_name: str
    bench: Workbench
    log: TurnLog
    budget: LoopBudget = field(default_factory=LoopBudget)
    emit: Emit = lambda event: None
    clock: Callable[[], float] = time.monotonic
    premises: tuple[str, ...] = ()  # names put in the first prompt

    def run(self, base: TurnKey, initial: Sequence[Mapping[str, Any]]) -> LoopOutcome:
        """Run (or resume) the loop for `base` (its `turn` field is ignored)."""
        recorded = self.log.load(base)
        native = self.model.native(self.model_name)
        state = _State(native=native, wall_s=recorded.spent_s)
        for number in range(1, self.budget.max_turns + 2):
            key = base._replace(turn=number)
            if number > self.budget.max_turns:
                return state.end(LoopStatus.UNFINISHED, self._spent("model turns"), self)
            if state.wall_s >= self.budget.max_wall_s:
                return state.end(LoopStatus.UNFINISHED, self._spent("wall time"), self)
            reply = recorded.replies.get(number)
            if reply is None:
                reply = self._ask(key, messages_for(initial, state.turns, native=native), state)
            state.count(reply)
            ended = self._tools(key, reply, recorded.results.get(number, {}), state)
            if ended is not None:
                return ended
        raise AssertionError("unreachable: the turn budget ends the loop")

    def _spent(self, what: str) -> str:
        limits = {
            "model turns": self.budget.max_turns,
            "tool calls": self.budget.max_tool_calls,
            "wall time": f"{self.budget.max_wall_s:g} s",
        }
        return f"budget_exhausted: {what} ({limits[what]}) spent before the obligation was proved"

    def _ask(self, key: TurnKey, messages: list[dict[str, Any]], state: _State) -> ToolTurn:
        """One paid turn. Its reply is in the turn log (`keep`) before the model edge reports
        the call: a run killed after that report asks the turn no second time."""
        self.emit({"event": "prover_turn_charged", **key._asdict(), "model": self.model_name})
        tools = tool_schemas() if state.native else []
        started = self.clock()

        def keep(reply: ToolTurn) -> None:
            elapsed = self.clock() - started
            state.wall_s += elapsed
            entry = {"kind": "reply", "key": key._asdict(), "reply": reply.model_dump()}
            self.log.append({**entry, "elapsed_s": elapsed})
            self.emit(
                {
                    "event": "prover_turn",
                    **key._asdict(),
                    "model": reply.model or self.model_name,
                    "duration_s": round(elapsed, 3),
                    "prompt_sha256": prompt_sha256(messages, tools),
                    "calls": [c.name for c in reply.calls],
                    "tokens_in": reply.tokens_in,
                    "tokens_out": reply.tokens_out,
                    "cost_usd": reply.cost_usd,
                    "replay": reply.replay,
                }
            )

        return self.model.turn(self.model_name, messages, tools=tools, key=key, keep=keep)

    def _tools(
        self, key: TurnKey, reply: ToolTurn, recorded: Mapping[int, ToolResult], state: _State
    ) -> LoopOutcome | None:
        turn = _Turn(assistant=assistant_message(reply))
        state.turns.append(turn)
        if not reply.calls:
            turn.reminder = True
            return None
        for index, call in enumerate(reply.calls):
            result = recorded.get(index)
            if result is not None and result.accepted:
                # An acceptance in the log is a claim, not evidence (the log is a workspace
                # file): Lean is asked again, uncharged, and only its answer ends the loop.
                result = self._call(call)
                entry = {"kind": "result", "key": key._asdict(), "index": index}
                self.log.append({**entry, "result": result.model_dump(), "rechecked": True})
            if result is None:
                if state.tool_calls >= self.budget.max_tool_calls:
                    return state.end(LoopStatus.UNFINISHED, self._spent("tool calls"), self)
                state.tool_calls += 1
                self.emit({"event": "prover_tool_charged", **key._asdict(), "tool": call.name})
                started = self.clock()
                result = self._call(call)
                elapsed = self.clock() - started
                state.wall_s += elapsed
                entry = {"kind": "result", "key": key._asdict(), "index": index}
                self.log.append({**entry, "result": result.model_dump(), "elapsed_s": elapsed})
                self.emit(
                    {
                        "event": "prover_tool",
                        **key._asdict(),
                        "index": index,
                        "tool": call.name,
                        "ok": result.ok,
                        "accepted": result.accepted,
                    }
                )
            else:
                state.tool_calls += 1
            turn.results.append((call, result))
            state.note(result)
            if ended := state.decide(call, result, self):
                return ended
        return None

    def _call(self, call: ToolCall) -> ToolResult:
        if call.malformed:
            return ToolResult(tool=call.name, ok=False, text=call.malformed)
        if call.name == GIVE_UP:
            try:
                args = GiveUpArgs.model_validate(call.arguments)
            except ValidationError as exc:
                return ToolResult(tool=GIVE_UP, ok=False, text=f"bad arguments: {exc}"[:600])
            flag = "suspected problem" if args.suspected_problem else "no proof found"
            return ToolResult(tool=GIVE_UP, ok=True, text=f"{flag}: {args.reason}")
        return self.bench.run(call.name, call.arguments)


@dataclass
class _State:
    native: bool
    turns: list[_Turn] = field(default_factory=list)
    tool_calls: int = 0
    tokens_in: int = 0
    wall_s: float = 0.0
    searched: list[str] = field(default_factory=list)
    suggestions: list[str] = field(default_factory=list)

    def count(self, reply: ToolTurn) -> None:
        self.tokens_in += reply.tokens_in or 0

    def note(self, result: ToolResult) -> None:
        self.searched.extend(n for n in result.names if n not in self.searched)
        if result.tool == "library":
            for line in result.text.splitlines():
                _, _, found = line.partition(": ")
                self.suggestions.extend(s.strip() for s in found.split(";") if s.strip())

    def decide(self, call: ToolCall, result: ToolResult, loop: ProverLoop) -> LoopOutcome | None:
        if result.accepted and result.candidate is not None:
            return self.end(LoopStatus.ACCEPTED, result.text, loop, proof=result.candidate)
        if call.name == GIVE_UP and result.ok:
            suspected = result.text.startswith("suspected problem")
            return self.end(LoopStatus.GAVE_UP, result.text, loop, suspected=suspected)
        return None

    def end(
        self,
        status: LoopStatus,
        reason: str,
        loop: ProverLoop,
        *,
        proof: str | None = None,
        suspected: bool = False,
    ) -> LoopOutcome:
        known = list(dict.fromkeys([*loop.premises, *self.searched]))
        used = tuple(n for n in known if proof and _mentions(proof, n))
        library = bool(proof) and any(_suggested(s, proof or "") for s in self.suggestions)
        return LoopOutcome(
            status=status,
            reason=reason,
            proof=proof,
            suspected_problem=suspected,
            turns=len(self.turns),
            tool_calls=self.tool_calls,
            tokens_in=self.tokens_in,
            searched=tuple(self.searched),
            premises_used=used,
            library_used=library,
        )


def prompt_sha256(messages: Sequence[Mapping[str, Any]], tools: Sequence[Mapping[str, Any]]) -> str:
    """The hash of what a turn sent (messages and tool schemas), as model calls record it."""
    text = json.dumps([list(messages), list(tools)], ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def _suggested(suggestion: str, proof: str) -> bool:
    """The proof contains the suggestion, as a tactic or as the term after `exact`."""
    term = suggestion.removeprefix("exact ").removeprefix("refine ")
    return suggestion in proof or term in proof


def _mentions(proof: str, name: str) -> bool:
    short = name.rsplit(".", 1)[-1]
    pattern = rf"(?<![\w.']){re.escape(name)}(?![\w'])|(?<![\w.']){re.escape(short)}(?![\w'])"
    return re.search(pattern, proof) is not None

"""The tool loop through REAL litellm against a loopback OpenAI-compatible server on 127.0.0.1.

The server is ours (a scripted chat-completions endpoint in a thread), bounded: it answers at
most `len(script)` requests, then 500s, and is shut down by the fixture; every request has a
60 s client timeout (the machine is shared). Lean is the SIMULATED REPL of simrepl.py.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from paperlint.agents.client import LiteLLMClient
from paperlint.agents.runner import AgentRunner
from paperlint.config import Config
from paperlint.prover.loop import LoopStatus, ProverLoop, TurnLog
from paperlint.prover.model import AgentTurns
from paperlint.prover.prompt import first_messages, system_prompt
from tests.prover.loopkit import BASE, GOOD, QUERY, bench, budget_of, repl_for_obligation


def _tool_reply(n: int, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    call = {
        "id": f"call_{n}",
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments)},
    }
    return {"role": "assistant", "content": None, "tool_calls": [call]}


class Endpoint:
    def __init__(self, script: list[dict[str, Any]]) -> None:
        self.script = script
        self.requests: list[dict[str, Any]] = []


@pytest.fixture
def endpoint() -> Iterator[tuple[Endpoint, str]]:
    state = Endpoint([])

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            state.requests.append(body)
            index = len(state.requests) - 1
            if index >= len(state.script):
                self.send_response(500)
                self.end_headers()
                return
            message = state.script[index]
            answer = {
                "id": f"cmpl-{index}",
                "object": "chat.completion",
                "created": 0,
                "model": body.get("model", "loopback"),
                "choices": [
                    {
                        "index": 0,
                        "message": message,
                        "finish_reason": "tool_calls" if message.get("tool_calls") else "stop",
                    }
                ],
                "usage": {
                    "prompt_tokens": 100 + index,
                    "completion_tokens": 7,
                    "total_tokens": 107 + index,
                },
            }
            data = json.dumps(answer).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state, f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


class _Forced(AgentTurns):
    """The turns of the one model edge, with the protocol forced (litellm knows no
    `openai/loopback`)."""

    def __init__(self, turns: AgentRunner, mode: str) -> None:
        super().__init__(turns)
        self.mode = mode

    def native(self, model: str) -> bool:
        return self.mode == "native"


def _loop(tmp_path: Path, base_url: str, mode: str, monkeypatch) -> ProverLoop:
    """The loop's turns through the agents' model client, as a run sends them: the same
    `AgentRunner` and `LiteLLMClient` every role uses (endpoint, key, timeouts per role)."""
    monkeypatch.setenv("LOOPBACK_KEY", "sk-loopback-test")
    config = Config.model_validate(
        {
            "roles": {
                "prover": {"api_base": base_url, "api_key_env": "LOOPBACK_KEY", "timeout_s": 60}
            }
        }
    )
    runner = AgentRunner(config, client=LiteLLMClient(config))
    return ProverLoop(
        model=_Forced(runner, mode),
        model_name="openai/loopback",
        bench=bench(tmp_path, repl_for_obligation()),
        log=TurnLog(tmp_path / "turns.jsonl"),
        budget=budget_of(),
    )


def test_native_tool_calls_through_litellm(tmp_path: Path, endpoint, monkeypatch) -> None:
    state, url = endpoint
    state.script = [
        _tool_reply(1, "search", {"query": QUERY}),
        _tool_reply(2, "check", {"lean": GOOD}),
    ]
    outcome = _loop(tmp_path, url, "native", monkeypatch).run(
        BASE, first_messages(system_prompt(native=True), "go")
    )
    assert outcome.status is LoopStatus.ACCEPTED and outcome.premises_used == ("le_max_left",)
    assert outcome.tokens_in == 100 + 101
    first, second = state.requests
    assert {t["function"]["name"] for t in first["tools"]} >= {"check", "search", "give_up"}
    assert first["tool_choice"] == "auto"
    tool_messages = [m for m in second["messages"] if m["role"] == "tool"]
    assert (
        tool_messages[0]["tool_call_id"] == "call_1"
        and "le_max_left" in tool_messages[0]["content"]
    )
    assert second["messages"][-2]["tool_calls"][0]["function"]["name"] == "search"


def test_the_text_protocol_through_litellm(tmp_path: Path, endpoint, monkeypatch) -> None:
    state, url = endpoint
    block = "```tool check\n" + json.dumps({"lean": GOOD}) + "\n```"
    state.script = [{"role": "assistant", "content": "Checking.\n" + block}]
    outcome = _loop(tmp_path, url, "text", monkeypatch).run(
        BASE, first_messages(system_prompt(native=False), "go")
    )
    assert outcome.status is LoopStatus.ACCEPTED
    assert "tools" not in state.requests[0]
    assert "```tool search" in state.requests[0]["messages"][0]["content"]  # the documented help

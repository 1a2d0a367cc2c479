"""A real OpenAI-compatible HTTP server on 127.0.0.1 that answers from a replay transcript.

`paperlint check` reaches it through litellm's real OpenAI client over real HTTP, so the
request, error mapping, retry, charging and parsing code a live run uses all run here. The
transcript entry is chosen by the `X-Paperlint-Call` header every live request carries, an
opaque hash of the call's key that the server recomputes for each entry (the prompt text is
not needed). Faults are injected per request by a `faults` function.

Bounded: it refuses more than `max_requests` requests (answering 400, which stops the run)
and shuts itself down after `lifetime_s`, so a test that goes wrong cannot hang.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from paperlint.agents.client import CALL_HEADER, RUN_HEADER, call_id
from paperlint.agents.transcript import ToolCallEntry, Transcript, TranscriptKey


@dataclass(frozen=True)
class Fault:
    """One injected answer instead of the transcript's: an HTTP status with a body and
    headers, a delay before answering, or a 200 with a doctored body."""

    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: dict[str, Any] | None = None
    delay_s: float = 0.0
    doctor: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    raw: bytes | None = None
    """Sent as the body as it is (a malformed reply), with `status`."""
    drop: bool = False
    """Close the connection without answering (a reset)."""
    echo_key: bool = False
    """Put the request's `Authorization` header into the error message (as some providers
    do), to show it never reaches an output."""


@dataclass
class Seen:
    key: TranscriptKey | None
    at: float
    status: int
    headers: dict[str, str]
    body: dict[str, Any]


FaultPlan = Callable[[int, TranscriptKey | None], Fault | None]
"""(request number from 1, key) -> the fault to answer with, or None for the real answer."""


def no_faults(number: int, key: TranscriptKey | None) -> Fault | None:
    return None


def error_body(message: str, code: str | None = None) -> dict[str, Any]:
    return {"error": {"message": message, "type": "loopback", "code": code}}


def call_index(keys: Iterable[TranscriptKey], salt: str) -> dict[str, TranscriptKey]:
    """`X-Paperlint-Call` id -> transcript key, for every key and its retries and repairs (the
    header is an opaque hash salted per run, `client.call_id`: the server recomputes it from
    the run's `X-Paperlint-Run` salt, as a proxy holding the transcript could)."""
    index: dict[str, TranscriptKey] = {}
    for key in keys:
        for attempt in range(1, 7):
            for repair in range(6):
                variant = key._replace(attempt=attempt, repair=repair)
                index.setdefault(call_id(salt, *variant), variant)
    for key in keys:
        index[call_id(salt, *key)] = key
    return index


class LoopbackProvider:
    def __init__(
        self,
        transcript: Path,
        *,
        faults: FaultPlan = no_faults,
        max_requests: int = 200,
        lifetime_s: float = 120.0,
        replies: dict[TranscriptKey, str] | None = None,
    ) -> None:
        self.transcript = Transcript.load(transcript)
        self.faults = faults
        self.max_requests = max_requests
        self.lifetime_s = lifetime_s
        self.replies = replies or {}
        self._keys = [*(e.key for e in self.transcript.entries()), *self.replies]
        self._calls: dict[str, dict[str, TranscriptKey]] = {}  # by the run's salt
        self.seen: list[Seen] = []
        self.unknown: list[TranscriptKey | None] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._serve, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_port}/v1"

    def __enter__(self) -> LoopbackProvider:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)

    def _serve(self) -> None:
        timer = threading.Timer(self.lifetime_s, self._server.shutdown)
        timer.daemon = True
        timer.start()
        try:
            self._server.serve_forever(poll_interval=0.05)
        finally:
            timer.cancel()

    def set_faults(self, faults: FaultPlan) -> None:
        with self._lock:
            self.faults = faults

    def answer(self, headers: dict[str, str], body: dict[str, Any]) -> tuple[int, dict, Any]:
        salt = headers.get(RUN_HEADER.lower()) or ""
        with self._lock:
            if salt not in self._calls:
                self._calls[salt] = call_index(self._keys, salt)
        key = self._calls[salt].get(headers.get(CALL_HEADER.lower()) or "")
        with self._lock:
            number = len(self.seen) + 1
            fault = self.faults(number, key)
            if number > self.max_requests:
                fault = Fault(400, body=error_body("loopback request limit reached"))
            seen = Seen(key, time.monotonic(), 200, headers, body)
            self.seen.append(seen)
        if fault is not None and fault.delay_s:
            seen.status = 0  # not answered (yet): the client may give up first
            time.sleep(fault.delay_s)
            seen.status = 200
        if fault is not None and fault.drop:
            seen.status = 0
            return 0, {}, None
        if fault is not None and fault.raw is not None:
            seen.status = fault.status if fault.status != 200 else 0  # not an answer
            return fault.status, fault.headers, fault.raw
        if fault is not None and fault.echo_key:
            seen.status = fault.status
            key = headers.get("authorization", "").removeprefix("Bearer ")
            said = f"Incorrect API key provided: {key}. Find your key in your account."
            return fault.status, fault.headers, error_body(said, "invalid_api_key")
        if fault is not None and fault.status != 200:
            seen.status = fault.status
            return fault.status, fault.headers, fault.body or error_body("injected fault")
        text = self.replies.get(key) if key else None
        entry = self.transcript.get(key) if key else None
        if text is None and entry is None:
            self.unknown.append(key)
            seen.status = 400
            return 400, {}, error_body(f"loopback: no transcript entry for {key}")
        if text is None:
            reply = completion_body(entry.response, body, entry.tool_calls)  # type: ignore[union-attr]
        else:
            reply = completion_body(text, body)
        if fault is not None and fault.doctor is not None:
            reply = fault.doctor(reply)
        return 200, {}, reply

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        provider = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                return None

            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                length = int(self.headers.get("content-length") or 0)
                try:
                    body = json.loads(self.rfile.read(length) or b"{}")
                except json.JSONDecodeError:
                    body = {}
                headers = {k.lower(): v for k, v in self.headers.items()}
                status, extra, payload = provider.answer(headers, body)
                if payload is None:  # a reset: no answer at all
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    for name, value in extra.items():
                        self.send_header(name, value)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client timed out and went away

        return Handler

    def answered(self) -> int:
        return sum(1 for s in self.seen if s.status == 200)


def completion_body(
    text: str, request: dict[str, Any], calls: Sequence[ToolCallEntry] = ()
) -> dict[str, Any]:
    """A chat completion answering `text`; a tool-loop turn's `calls` as native tool calls when
    the request offered tools, else written in the text protocol (as a model told it would)."""
    prompt = sum(len(str(m.get("content") or "")) for m in request.get("messages", []))
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if calls and request.get("tools"):
        message["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in calls
        ]
    elif calls:
        blocks = "".join(f"\n```tool {c.name}\n{c.arguments}\n```" for c in calls)
        message["content"] = text + blocks
    return {
        "id": "chatcmpl-loopback",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": str(request.get("model", "loopback")),
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "stop",
            }
        ],
        "usage": {
            "prompt_tokens": max(1, prompt // 4),
            "completion_tokens": max(1, len(text) // 4),
            "total_tokens": max(1, prompt // 4) + max(1, len(text) // 4),
        },
    }

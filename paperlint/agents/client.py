"""The model edge: one `complete` call per request, through litellm.

litellm is imported lazily (it takes seconds and reaches for the network at import time), so
`paperlint --help` stays fast and offline; a replay never imports it (`ScriptedClient`), and a
live run starts importing it in the background as it opens (`preload_litellm`), so the first
model call does not wait for the whole import nor count it in its duration.
"""

from __future__ import annotations

import copy
import hashlib
import json
import logging
import os
import re
import sys
import threading
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple, Protocol

from paperlint.agents.faults import (
    EmptyReply,
    FaultKind,
    ModelUnavailableError,
    classify,
    no_model,
    stop_error,
)
from paperlint.agents.outputs import OUTPUT_MODELS
from paperlint.config import Config, Price, RoleSettings

METADATA_KEY = "paperlint"
"""The litellm `metadata` entry that carries the call's key (see `transcript.call_metadata`)."""

Message = dict[str, Any]
"""One chat message: {"role": "system" | "user" | "assistant" | "tool", "content": ...}, and
an assistant's `tool_calls` in a tool-loop conversation."""

log = logging.getLogger(__name__)


class RawToolCall(NamedTuple):
    """A tool call as the provider sent it: its arguments are the model's JSON text, parsed by
    the prover's tools (`paperlint.prover.protocol`), never here."""

    id: str
    name: str
    arguments: str


@dataclass(frozen=True)
class Completion:
    text: str
    tokens_in: int | None
    tokens_out: int | None
    cost_usd: float | None
    """None when unknown; never a made-up 0 (a priced free model is a real 0)."""
    prompt_drift: bool = False
    """Replay only: the recorded prompt hash differs from the prompt sent now."""
    template_drift: bool = False
    """Replay only: the answer was recorded with another prompt template than today's."""
    model: str | None = None
    """The model string actually used, when the client chose it (replay routes every role to
    `paperlint-replay/<role>`)."""
    finish_reason: str | None = None
    """The provider's reason the reply ended; `length` means it was cut off."""
    tool_calls: tuple[RawToolCall, ...] = ()
    """A tool-loop turn's native tool calls (none: the text protocol, or no call)."""
    estimated: bool = False
    """The provider sent no usage: the tokens (and so the cost) are estimated from the
    request's and the reply's sizes (`estimate_tokens`), so `--max-cost` still holds."""


class ModelClient(Protocol):
    """What the runner needs from a model edge; fakes in tests implement this too.

    `complete` may raise litellm's exceptions as they come; the runner sorts them once with
    `paperlint.agents.faults.classify`."""

    replay: bool

    def complete(
        self,
        model: str,
        messages: Sequence[Message],
        *,
        metadata: Mapping[str, Any],
        tools: Sequence[Mapping[str, Any]] = (),
    ) -> Completion:
        """One request; with `tools` (a tool-loop turn), the model may answer with calls."""
        ...

    def ladder(self, role: str) -> list[str]:
        """The models for `role`, weakest first. Raises ModelError when none is configured."""
        ...

    def supports_tools(self, model: str) -> bool:
        """Whether `model` takes native tool calls (else the tool loop speaks the text
        protocol, `paperlint.prover.protocol`)."""
        ...

    def answers_turns(self) -> bool:
        """Whether this edge can answer the prover's tool-loop turns at all (a replay: only
        if it recorded some)."""
        ...


OFFLINE_ENV = {
    # litellm fetches its price table from GitHub at import unless told not to; the bundled
    # copy is enough for prices and keeps runs offline-safe and fast.
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    # Any other catalogue or tokenizer litellm would fetch on its own (not from an endpoint
    # the user configured) uses its bundled copy.
    "LITELLM_OFFLINE_MODE": "true",
    "LITELLM_TELEMETRY": "False",
}


def import_litellm() -> Any:
    """Import litellm quietly: no remote look-ups, no telemetry, no debug banners. Called only
    when a model is about to be asked (the import takes seconds)."""
    for name, value in OFFLINE_ENV.items():
        os.environ.setdefault(name, value)
    import litellm

    litellm.telemetry = False
    litellm.suppress_debug_info = True
    # Keeps prompts out of litellm's own callbacks/loggers.
    litellm.turn_off_message_logging = True
    # litellm attaches its own stderr handler; its warnings (price table, provider hints) are
    # not the user's business, and its failures reach us as exceptions anyway.
    for name in ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy"):
        logging.getLogger(name).setLevel(logging.ERROR)
    return litellm


_PRELOAD: list[threading.Thread] = []
_PRELOAD_LOCK = threading.Lock()


def preload_litellm() -> None:
    """Start importing litellm in a daemon thread (once per process): a live run opens its
    workspace, reads the paper and starts Lean meanwhile. Python's import lock makes a
    concurrent `import_litellm` wait for this one instead of importing twice."""
    with _PRELOAD_LOCK:
        if _PRELOAD or "litellm" in sys.modules:
            return
        thread = threading.Thread(target=_quiet_import, name="paperlint-litellm", daemon=True)
        _PRELOAD.append(thread)
        thread.start()


def _quiet_import() -> None:
    try:
        import_litellm()
    except Exception:  # the first model call imports it again and reports the failure
        log.debug("importing litellm in the background failed", exc_info=True)


def transient_errors() -> tuple[type[BaseException], ...]:
    """litellm's error classes that are always worth waiting out (rate limits, timeouts,
    overloaded servers). Status-coded errors are sorted by `faults.classify` instead."""
    litellm = import_litellm()
    return (
        litellm.RateLimitError,
        litellm.APIConnectionError,
        litellm.Timeout,
        litellm.ServiceUnavailableError,
        litellm.InternalServerError,
        litellm.BadGatewayError,
    )


CALL_HEADER = "X-Paperlint-Call"
"""An opaque id of the call on every live request (`call_id`), so a proxy's log, or a test
server holding the transcript, can tell requests apart and match retries without reading
prompts. Opaque on purpose: headers land in gateway and proxy logs that never see a prompt, so
the paper's result labels, obligation names and attempt counts stay out of them."""
RUN_HEADER = "X-Paperlint-Run"
"""The salt of the call ids, random per run (per client): the same call of another run, paper
or user gets another id, so ids link nothing across runs; whoever holds the transcript and
sees this header can still recompute them."""


def call_id(
    salt: str,
    task: str,
    result: str | None,
    obligation: str | None,
    attempt: int,
    repair: int,
    turn: int = 0,
) -> str:
    """A salted hash of the call's transcript key: the same call gets the same id within a
    run (its retries match), another with another `salt`; a transcript's owner can recompute
    it for each entry from the run's salt, and nothing readable goes out."""
    parts: list[Any] = [task, result, obligation, int(attempt), int(repair)]
    parts += [int(turn)] if turn else []  # a tool-loop turn; other calls keep their ids
    key = json.dumps(parts, separators=(",", ":"))
    return hashlib.sha256(f"paperlint-call\0{salt}\0{key}".encode()).hexdigest()[:32]


class LiteLLMClient:
    """Live models through `litellm.completion`. litellm's own retries are off: the runner
    retries, so every HTTP request is seen, charged and logged once."""

    replay = False

    def __init__(self, config: Config, *, request_timeout_s: float | None = None) -> None:
        from paperlint import secrets

        secrets.remember_roles(config.roles)  # masked wherever text is written from now on
        secrets.remember_provider_env()
        self._config = config
        self._models = config.models
        self._timeout = request_timeout_s
        self.salt = os.urandom(8).hex()  # of the call ids (RUN_HEADER)

    def ladder(self, role: str) -> list[str]:
        models = self._models.ladder(role)
        if not models:
            raise no_model(role)
        return models

    def supports_tools(self, model: str) -> bool:
        litellm = import_litellm()
        try:
            return bool(litellm.supports_function_calling(model=model))
        except Exception:  # an unknown model: litellm raises; the text protocol always works
            return False

    def answers_turns(self) -> bool:
        return True

    def complete(
        self,
        model: str,
        messages: Sequence[Message],
        *,
        metadata: Mapping[str, Any],
        tools: Sequence[Mapping[str, Any]] = (),
    ) -> Completion:
        litellm = import_litellm()
        info = metadata.get(METADATA_KEY) or {}
        role = str(info.get("role", ""))
        settings = self._config.role_settings(role)
        options = request_options(litellm, model, settings, info, salt=self.salt)
        if tools:
            options.update(tools=list(tools), tool_choice="auto")
        if self._timeout is not None:
            options["timeout"] = self._timeout
        try:
            response = request(litellm, model, messages, metadata=metadata, options=options)
        except Exception as exc:
            fault = classify(exc, litellm=litellm)
            if fault is None or fault.kind in (FaultKind.TRANSIENT, FaultKind.CONTEXT):
                raise  # the runner waits these out or falls back to the next model
            reason = f"{type(exc).__name__}: {redact(str(exc))}"
            raise stop_error(fault, model, reason, settings.api_key_env) from None
        return to_completion(
            litellm, response, model=model, prices=self._config.prices, sent=messages
        )


def request_options(
    litellm: ModuleType,
    model: str,
    settings: RoleSettings,
    info: Mapping[str, Any],
    *,
    salt: str = "",
) -> dict[str, Any]:
    """litellm keyword arguments from the role's settings: endpoint, key, limits, headers,
    and a response schema where litellm says the model takes one."""
    options: dict[str, Any] = {"timeout": settings.timeout_s}
    if settings.api_base:
        options["api_base"] = settings.api_base
    if settings.api_key_env:
        key = os.environ.get(settings.api_key_env)
        if not key:
            raise ModelUnavailableError(
                f"{model}: ${settings.api_key_env} is not set",
                fix=f"export {settings.api_key_env}=<your key>, then `paperlint resume`",
                kind="auth",
            )
        options["api_key"] = key
    if settings.temperature is not None:
        options["temperature"] = settings.temperature
    if settings.max_tokens is not None:
        options["max_tokens"] = settings.max_tokens
    headers = dict(settings.headers)
    task = info.get("task")
    if task:
        headers[CALL_HEADER] = call_header(info, salt)
        headers[RUN_HEADER] = salt
    if headers:
        options["extra_headers"] = headers
    if task in OUTPUT_MODELS and supports_schema(litellm, model):
        options["response_format"] = response_format(task)
    return options


def call_header(info: Mapping[str, Any], salt: str) -> str:
    return call_id(
        salt,
        str(info.get("task")),
        info.get("result"),
        info.get("obligation"),
        int(info.get("attempt") or 1),
        int(info.get("repair") or 0),
        int(info.get("turn") or 0),
    )


def supports_schema(litellm: ModuleType, model: str) -> bool:
    try:
        return bool(litellm.supports_response_schema(model=model))
    except Exception:  # litellm logs and answers False for unknown models; be as lenient
        return False


def response_format(task: str) -> dict[str, Any]:
    """The output model's JSON schema as an OpenAI-style `response_format` (non-strict: strict
    mode rejects schemas with defaults, and the answer is validated here anyway)."""
    schema = OUTPUT_MODELS[task].model_json_schema()
    return {"type": "json_schema", "json_schema": {"name": task, "schema": schema}}


def request(
    litellm: ModuleType,
    model: str,
    messages: Sequence[Message],
    *,
    metadata: Mapping[str, Any],
    options: Mapping[str, Any] | None = None,
) -> Any:
    """One `litellm.completion` call, one HTTP request (litellm's retries are off). litellm's
    exceptions propagate for the runner to classify."""
    with warnings.catch_warnings():
        # litellm imports provider modules on first use, and pydantic warns about their
        # TypedDicts; that is litellm's noise, not the user's business.
        warnings.filterwarnings("ignore", message=".*`ReadOnly` qualifier", category=UserWarning)
        return litellm.completion(
            model=model,
            messages=list(messages),
            metadata=copy.deepcopy(dict(metadata)),  # litellm writes into it
            num_retries=0,
            max_retries=0,
            **{"timeout": 600.0, **(options or {})},
        )


def to_completion(
    litellm: ModuleType,
    response: Any,
    *,
    model: str,
    prices: Mapping[str, Price] | None = None,
    sent: Sequence[Message] = (),
) -> Completion:
    """The answer's text, usage and cost. No `choices` at all is a provider hiccup
    (`EmptyReply`, waited out); usage the provider did not send is estimated from `sent` and
    the reply (marked `estimated`), so a budget on cost never silently stops counting."""
    choices = getattr(response, "choices", None) or []
    if not choices:
        raise EmptyReply("the provider answered without any choices")
    choice = choices[0]
    message = getattr(choice, "message", None)
    text = getattr(message, "content", None) or ""
    calls = tool_calls_of(message)
    tokens_in, tokens_out = usage_of(response)
    estimated = tokens_in is None
    if estimated:
        tokens_in = estimate_tokens(json.dumps(list(sent), ensure_ascii=False, default=str))
        tokens_out = estimate_tokens(text + "".join(c.name + c.arguments for c in calls))
        cost = priced_cost(litellm, model, tokens_in, tokens_out or 0, prices)
    else:
        cost = completion_cost(litellm, response, model=model, prices=prices)
    return Completion(
        text=text,
        tokens_in=tokens_in,
        tokens_out=tokens_out,
        cost_usd=cost,
        finish_reason=getattr(choice, "finish_reason", None),
        tool_calls=calls,
        estimated=estimated,
    )


def estimate_tokens(text: str) -> int:
    """Tokens in `text` at about 4 characters a token (English and LaTeX run 3.5-4.5; a rough
    count that errs high for prose is right for a budget), at least 1."""
    return max(1, -(-len(text) // 4))


def priced_cost(
    litellm: ModuleType,
    model: str,
    tokens_in: int,
    tokens_out: int,
    prices: Mapping[str, Price] | None = None,
) -> float | None:
    """The cost of estimated tokens at the model's price (`[prices]`, else litellm's map);
    None when the model has no price."""
    price = (prices or {}).get(model)
    if price is not None:
        return tokens_in * price.input_cost_per_token + tokens_out * price.output_cost_per_token
    try:
        info = litellm.get_model_info(model)
        cost_in, cost_out = info["input_cost_per_token"], info["output_cost_per_token"]
    except Exception:  # litellm raises for a model it does not know: unpriced
        return None
    if cost_in is None or cost_out is None:
        return None
    return tokens_in * float(cost_in) + tokens_out * float(cost_out)


def tool_calls_of(message: Any) -> tuple[RawToolCall, ...]:
    """The native tool calls of a reply, as sent (ids kept; arguments unparsed)."""
    calls = []
    for number, call in enumerate(getattr(message, "tool_calls", None) or (), start=1):
        function = getattr(call, "function", None)
        calls.append(
            RawToolCall(
                id=str(getattr(call, "id", None) or f"c{number}"),
                name=str(getattr(function, "name", None) or ""),
                arguments=str(getattr(function, "arguments", None) or ""),
            )
        )
    return tuple(calls)


def usage_of(response: Any) -> tuple[int | None, int | None]:
    """Prompt and reply tokens. litellm fills a missing `usage` with zeros; a prompt is never
    0 tokens, so a zero prompt count means the provider sent none: unknown, not 0."""
    usage = getattr(response, "usage", None)
    prompt = getattr(usage, "prompt_tokens", None)
    reply = getattr(usage, "completion_tokens", None)
    if not isinstance(prompt, int) or prompt <= 0:
        return None, None
    return prompt, reply if isinstance(reply, int) else None


def completion_cost(
    litellm: ModuleType, response: Any, *, model: str, prices: Mapping[str, Price] | None = None
) -> float | None:
    """The request's cost in USD: `[prices]` from the config when given (litellm's
    `custom_cost_per_token`), else litellm's price map. None when the model has no price; a
    priced free model (a local one) costs a real 0."""
    price = (prices or {}).get(model)
    custom = price.model_dump() if price is not None else None
    try:
        cost = litellm.completion_cost(completion_response=response, custom_cost_per_token=custom)
    except Exception:  # an unpriced model: the cost is unknown, not an error
        return None
    if cost:
        return float(cost)
    return 0.0 if custom is not None or is_priced(litellm, model) else None


def unpriced_models(config: Config) -> list[str]:
    """The configured models with no price in `[prices]` or litellm's map (imports litellm)."""
    from paperlint.config import ROLES

    models = dict.fromkeys(model for role in ROLES for model in config.models.ladder(role))
    if config.models.second_drafter:
        models[config.models.second_drafter] = None
    if not models:
        return []
    litellm = import_litellm()
    return [model for model in models if not is_priced(litellm, model, config.prices)]


def is_priced(litellm: ModuleType, model: str, prices: Mapping[str, Price] | None = None) -> bool:
    """Whether `model` has a price, from `[prices]` or litellm's bundled map (0 included)."""
    if prices and model in prices:
        return True
    try:
        info = litellm.get_model_info(model)
    except Exception:  # litellm raises for a model it does not know
        return False
    return info.get("input_cost_per_token") is not None and (
        info.get("output_cost_per_token") is not None
    )


_SECRET = re.compile(
    r"(sk-[A-Za-z0-9_\-]{8,}|(?i:api[_-]?key|authorization|bearer)[\"'=:\s]+[A-Za-z0-9_\-\.]{8,})"
)


def redact(text: str, *, limit: int = 500) -> str:
    """Error text safe to log: the run's keys masked by value (`paperlint.secrets`), other
    key-shaped strings by pattern, length bounded."""
    from paperlint.secrets import scrub

    return _SECRET.sub("[redacted]", scrub(text))[:limit]


def make_client(
    config: Config, replay_dir: Path | None = None, *, record_dir: Path | None = None
) -> ModelClient:
    """The scripted replay client when `replay_dir` is given, else live litellm models;
    with `record_dir`, every live answer is also appended to its transcript."""
    if replay_dir is not None:
        from paperlint.agents.scripted import ScriptedClient

        return ScriptedClient(replay_dir)
    client: ModelClient = LiteLLMClient(config)
    if record_dir is not None:
        from paperlint.agents.transcript import RecordingClient

        client = RecordingClient(client, record_dir)
    return client

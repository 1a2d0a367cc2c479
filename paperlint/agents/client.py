"""The model edge: one `complete` call per request, through litellm.

litellm is imported lazily (it takes seconds and reaches for the network at import time), so
`paperlint --help` stays fast and offline.
"""

from __future__ import annotations

import copy
import logging
import os
import re
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

from paperlint.config import Config
from paperlint.errors import ModelError

Message = dict[str, str]
"""One chat message: {"role": "system" | "user" | "assistant", "content": ...}."""


@dataclass(frozen=True)
class Completion:
    text: str
    tokens_in: int | None
    tokens_out: int | None
    cost_usd: float | None
    """None when unknown; never a made-up 0."""
    prompt_drift: bool = False
    """Replay only: the recorded prompt hash differs from the prompt sent now."""
    model: str | None = None
    """The model string actually used, when the client chose it (replay routes every role to
    `paperlint-replay/<role>`)."""


class ModelClient(Protocol):
    """What the runner needs from a model edge; fakes in tests implement this too."""

    replay: bool

    def complete(
        self, model: str, messages: Sequence[Message], *, metadata: Mapping[str, Any]
    ) -> Completion: ...

    def ladder(self, role: str) -> list[str]:
        """The models for `role`, weakest first. Raises ModelError when none is configured."""
        ...


def import_litellm() -> Any:
    """Import litellm quietly: no remote cost-map fetch, no telemetry, no debug banners."""
    # litellm downloads its price table from GitHub at import unless told not to; the bundled
    # copy is enough for cost estimates and keeps runs offline-safe and fast.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
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


def transient_errors() -> tuple[type[BaseException], ...]:
    """litellm's errors worth waiting out: rate limits, timeouts, overloaded servers."""
    litellm = import_litellm()
    return (
        litellm.RateLimitError,
        litellm.APIConnectionError,
        litellm.Timeout,
        litellm.ServiceUnavailableError,
        litellm.InternalServerError,
    )


class LiteLLMClient:
    """Live models through `litellm.completion`. litellm's own retries are off: the runner
    retries, so every request is seen, charged and logged once."""

    replay = False

    def __init__(self, config: Config, *, request_timeout_s: float = 600.0) -> None:
        self._models = config.models
        self._timeout = request_timeout_s

    def ladder(self, role: str) -> list[str]:
        models = self._models.ladder(role)
        if not models:
            raise ModelError(f"no model configured for role {role}; set [models] in paperlint.toml")
        return models

    def complete(
        self, model: str, messages: Sequence[Message], *, metadata: Mapping[str, Any]
    ) -> Completion:
        litellm = import_litellm()
        response = request(litellm, model, messages, metadata=metadata, timeout_s=self._timeout)
        return to_completion(litellm, response)


def request(
    litellm: ModuleType,
    model: str,
    messages: Sequence[Message],
    *,
    metadata: Mapping[str, Any],
    timeout_s: float,
) -> Any:
    """One `litellm.completion` call. Transient errors propagate for the runner to wait out;
    any other failure becomes a ModelError with key-shaped text masked."""
    try:
        with warnings.catch_warnings():
            # litellm imports provider modules on first use, and pydantic warns about their
            # TypedDicts; that is litellm's noise, not the user's business.
            warnings.filterwarnings(
                "ignore", message=".*`ReadOnly` qualifier", category=UserWarning
            )
            return litellm.completion(
                model=model,
                messages=list(messages),
                metadata=copy.deepcopy(dict(metadata)),  # litellm writes into it
                num_retries=0,
                max_retries=0,
                timeout=timeout_s,
            )
    except transient_errors():
        raise
    except ModelError:
        raise
    except Exception as exc:  # litellm maps every provider failure to its own classes
        raise ModelError(f"model {model} failed: {redact(str(exc))}") from None


def to_completion(litellm: ModuleType, response: Any) -> Completion:
    text = response.choices[0].message.content or ""
    usage = getattr(response, "usage", None)
    return Completion(
        text=text,
        tokens_in=getattr(usage, "prompt_tokens", None),
        tokens_out=getattr(usage, "completion_tokens", None),
        cost_usd=completion_cost(litellm, response),
    )


def completion_cost(litellm: ModuleType, response: Any) -> float | None:
    """litellm's price estimate, or None when the model is not in its price table."""
    try:
        cost = litellm.completion_cost(completion_response=response)
    except Exception:  # unknown model or missing usage: the cost is unknown, not an error
        return None
    # litellm answers 0.0 for some models it cannot price; a free call is rarer than an unknown
    # price, and an unknown cost must never be summed as zero.
    return float(cost) if cost else None


_SECRET = re.compile(
    r"(sk-[A-Za-z0-9_\-]{8,}|(?i:api[_-]?key|authorization|bearer)[\"'=:\s]+[A-Za-z0-9_\-\.]{8,})"
)


def redact(text: str, *, limit: int = 500) -> str:
    """Error text safe to log: key-shaped strings masked, length bounded."""
    return _SECRET.sub("[redacted]", text)[:limit]


def make_client(config: Config, replay_dir: Path | None = None) -> ModelClient:
    """The scripted replay client when `replay_dir` is given, else live litellm models."""
    if replay_dir is not None:
        from paperlint.agents.scripted import ScriptedClient

        return ScriptedClient(replay_dir)
    return LiteLLMClient(config)

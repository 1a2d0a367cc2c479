"""Provider failures, classified once.

Every exception a model request can raise is sorted here into one of four kinds, so the runner
never guesses from a class name in two places:

- transient: rate limits, timeouts, 5xx (520 and 529 included), a reply without `choices`.
  Waited out, with the server's Retry-After as a floor.
- auth: a key that is missing, wrong or not allowed (401, 403). The run stops at once. litellm
  reports a key missing from the environment as a 500 for some providers (openai: "Missing
  credentials", as InternalServerError) and as a connection error for others (gemini: "Missing
  Gemini API key"); no retry can help, so its text decides (`_MISSING_KEY`, with the providers'
  messages in `tests/agents/test_faults.py`, taken from litellm 1.110 here without keys).
- config: a model or endpoint that does not exist (404, a bad request litellm maps to its
  config errors). The run stops at once.
- context: the prompt does not fit the model's window. The next model of the role is asked.

None of them is the model's fault, so none becomes a final verdict reason: the result stays
open and `paperlint resume` asks again. The classification leans on litellm's own exception
types and its `should_retry(status)` rule (the one openai-python uses).
"""

from __future__ import annotations

import email.utils
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from paperlint.errors import ModelError


class FaultKind(StrEnum):
    TRANSIENT = "transient"
    AUTH = "auth"
    CONFIG = "config"
    CONTEXT = "context"


@dataclass(frozen=True)
class Fault:
    kind: FaultKind
    status: int | None
    message: str
    retry_after_s: float | None = None


class EmptyReply(Exception):
    """The provider answered 200 with no `choices`: a hiccup, waited out like a 5xx."""


class ModelUnavailableError(ModelError):
    """No answer can be had now (auth, config, a provider that keeps failing, a spent budget
    inside an action). The engine records the result as unfinished with a soft reason, so a
    later `resume` asks again; `fix` says what to do first."""

    def __init__(self, message: str, *, fix: str, kind: str) -> None:
        super().__init__(f"{message}; {fix}")
        self.fix = fix
        self.kind = kind


def no_model(role: str) -> ModelUnavailableError:
    """No model is configured for `role`: nothing to ask until the config names one."""
    return ModelUnavailableError(
        f"no model configured for role {role}", fix="set [models] in paperlint.toml", kind="config"
    )


class BudgetSpent(ModelError):
    """The next request would go over `--max-calls` or `--max-cost`: it is not sent."""


class ContextTooLong(ModelError):
    """Every model of the role rejected the prompt as longer than its context window."""


# A provider's words for "no key in the environment" (see the module docstring).
_MISSING_KEY: Final = re.compile(
    r"missing credentials|missing [\w ]{0,30}api[ _]?key|api[ _]?key[\w ]{0,40}must be set", re.I
)
# An environment variable a message names as the place for a key.
_KEY_VARIABLE: Final = re.compile(r"\b[A-Z][A-Z0-9_]*_(?:API_KEY|ADMIN_KEY)\b")


def classify(exc: BaseException, *, litellm: Any) -> Fault | None:
    """The kind of `exc`, or None when it is not a provider failure (a bug: let it raise)."""
    fault = _classify(exc, litellm)
    if (
        fault is not None
        and fault.kind is FaultKind.TRANSIENT
        and _MISSING_KEY.search(fault.message)
    ):
        return Fault(FaultKind.AUTH, fault.status, fault.message)
    return fault


def _classify(exc: BaseException, litellm: Any) -> Fault | None:
    message = str(exc)
    if isinstance(exc, EmptyReply):
        return Fault(FaultKind.TRANSIENT, None, message)
    if isinstance(exc, litellm.ContextWindowExceededError):
        return Fault(FaultKind.CONTEXT, 400, message)
    if isinstance(exc, litellm.Timeout | litellm.APIConnectionError):
        return Fault(FaultKind.TRANSIENT, getattr(exc, "status_code", None), message)
    status = _status(exc)
    if isinstance(exc, litellm.AuthenticationError | litellm.PermissionDeniedError) or status in (
        401,
        403,
    ):
        return Fault(FaultKind.AUTH, status, message)
    if isinstance(exc, litellm.RateLimitError) or (
        status is not None and litellm.utils.should_retry(status)
    ):
        return Fault(FaultKind.TRANSIENT, status, message, retry_after_s(_headers(exc)))
    if isinstance(exc, litellm.NotFoundError | litellm.BadRequestError) or status is not None:
        return Fault(FaultKind.CONFIG, status, message)
    if isinstance(exc, litellm.APIError | litellm.OpenAIError):
        return Fault(FaultKind.TRANSIENT, status, message)
    return None


def _status(exc: BaseException) -> int | None:
    status = getattr(exc, "status_code", None)
    return status if isinstance(status, int) else None


def _headers(exc: BaseException) -> Mapping[str, str] | None:
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    return headers if headers is not None and hasattr(headers, "get") else None


def retry_after_s(
    headers: Mapping[str, str] | None, *, now: Callable[[], float] = time.time
) -> float | None:
    """How long the server asked us to wait, in seconds, from any of its forms:
    `retry-after-ms: 1500`, `retry-after: 20`, `retry-after: Wed, 21 Oct 2015 07:28:00 GMT`.
    None when there is no usable header; never negative."""
    if headers is None:
        return None
    millis = _number(headers.get("retry-after-ms"))
    if millis is not None:
        return max(0.0, millis / 1000)
    raw = headers.get("retry-after")
    if raw is None:
        return None
    seconds = _number(raw)
    if seconds is not None:
        return max(0.0, seconds)
    try:
        when = email.utils.parsedate_to_datetime(raw.strip())
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, when.timestamp() - now())


def _number(value: object) -> float | None:
    if not isinstance(value, str):
        return None
    try:
        number = float(value.strip())
    except ValueError:
        return None
    return number if number == number and number != float("inf") else None  # no NaN, no inf


def stop_error(fault: Fault, model: str, reason: str, key_env: str | None) -> ModelUnavailableError:
    """The error that stops the run for an auth or config fault, with the fix named."""
    return ModelUnavailableError(
        f"{model}: {reason}", fix=fix_for(fault, model, key_env), kind=fault.kind
    )


def fix_for(fault: Fault, model: str, key_env: str | None) -> str:
    """What the user should do, named for the fault's kind."""
    if fault.kind is FaultKind.AUTH:
        named = list(dict.fromkeys(_KEY_VARIABLE.findall(fault.message)))
        if key_env or named:
            where = " or ".join(f"${name}" for name in ([key_env] if key_env else named))
        else:
            where = "the provider's API key variable"
        return (
            f"the provider refused the key for {model} (HTTP {fault.status}); set {where} to "
            "a valid key (or [roles.<role>] api_key_env in paperlint.toml), then "
            "`paperlint resume`"
        )
    if fault.kind is FaultKind.CONFIG:
        return (
            f"the provider rejected the request for {model} (HTTP {fault.status}); check the "
            "model name and api_base in paperlint.toml, then `paperlint resume`"
        )
    if fault.kind is FaultKind.CONTEXT:
        return (
            "the prompt is longer than every configured model's context window; add a model "
            "with a larger window to the role's list, then `paperlint resume`"
        )
    return "try again later with `paperlint resume` (or raise [retry] max_attempts)"

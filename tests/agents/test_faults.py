"""Provider failures sorted once, from litellm's real exception classes; Retry-After in every
form; a context-window error falls to the role's next model."""

import email.utils
import json
import random

import httpx
import litellm
import pytest

from paperlint.agents.client import Completion, import_litellm
from paperlint.agents.faults import (
    EmptyReply,
    FaultKind,
    ModelUnavailableError,
    classify,
    fix_for,
    retry_after_s,
)
from paperlint.agents.runner import AgentCall, AgentRunner
from paperlint.config import Config, RetryConfig

from .conftest import MINIMAL_INPUTS, VALID_ANSWERS

import_litellm()


def _api_error(status):
    return litellm.APIError(status, "boom", llm_provider="openai", model="m")


CASES = [
    (litellm.RateLimitError("slow", llm_provider="openai", model="m"), FaultKind.TRANSIENT),
    (litellm.BadGatewayError("bad gateway", llm_provider="openai", model="m"), FaultKind.TRANSIENT),
    (_api_error(529), FaultKind.TRANSIENT),
    (_api_error(520), FaultKind.TRANSIENT),
    (_api_error(503), FaultKind.TRANSIENT),
    (litellm.Timeout("slow", model="m", llm_provider="openai"), FaultKind.TRANSIENT),
    (litellm.APIConnectionError("reset", llm_provider="openai", model="m"), FaultKind.TRANSIENT),
    (EmptyReply("no choices"), FaultKind.TRANSIENT),
    (litellm.AuthenticationError("bad key", llm_provider="openai", model="m"), FaultKind.AUTH),
    (_api_error(403), FaultKind.AUTH),
    (litellm.NotFoundError("no such model", llm_provider="openai", model="m"), FaultKind.CONFIG),
    (
        litellm.ContextWindowExceededError("too long", model="m", llm_provider="openai"),
        FaultKind.CONTEXT,
    ),
]


@pytest.mark.parametrize(("exc", "kind"), CASES, ids=[type(c[0]).__name__ for c in CASES])
def test_every_provider_failure_has_one_kind(exc, kind):
    assert classify(exc, litellm=litellm).kind is kind


# What litellm 1.110 raised here for a request with no key in the environment (the messages
# verbatim, up to the first sentence or two): a 500 or a connection error, which a retry
# cannot mend. Anthropic's is a 401 already.
OPENAI_NO_KEY = (
    "litellm.InternalServerError: InternalServerError: OpenAIException - Missing credentials. "
    "Please pass an `api_key`, `workload_identity`, `admin_api_key`, or set the "
    "`OPENAI_API_KEY` or `OPENAI_ADMIN_KEY` environment variable."
)
GEMINI_NO_KEY = (
    "Missing Gemini API key. Set the GEMINI_API_KEY or GOOGLE_API_KEY environment variable."
)
NO_KEY = [
    (
        litellm.InternalServerError(OPENAI_NO_KEY, llm_provider="openai", model="m"),
        "OPENAI_API_KEY",
    ),
    (litellm.APIConnectionError(GEMINI_NO_KEY, llm_provider="gemini", model="m"), "GEMINI_API_KEY"),
    (
        litellm.APIError(
            500,
            "The api_key client option must be set either by passing api_key to the client or "
            "by setting the OPENAI_API_KEY environment variable",
            llm_provider="openai",
            model="m",
        ),
        "OPENAI_API_KEY",
    ),
]


@pytest.mark.parametrize(("exc", "variable"), NO_KEY, ids=["openai", "gemini", "openai-client"])
def test_a_key_missing_from_the_environment_stops_the_run_and_names_the_variable(exc, variable):
    fault = classify(exc, litellm=litellm)
    assert fault.kind is FaultKind.AUTH  # not waited out as a 5xx: no retry can help
    assert f"${variable}" in fix_for(fault, "m", None)
    # a variable the role's config names wins over the message's
    assert "$MY_KEY" in fix_for(fault, "m", "MY_KEY")
    assert f"${variable}" not in fix_for(fault, "m", "MY_KEY")


def test_a_5xx_that_speaks_of_keys_otherwise_is_still_waited_out():
    for text in ("upstream overloaded", "API key rotation in progress, try again"):
        exc = litellm.InternalServerError(text, llm_provider="openai", model="m")
        assert classify(exc, litellm=litellm).kind is FaultKind.TRANSIENT


def test_a_bug_is_not_a_provider_failure():
    assert classify(KeyError("x"), litellm=litellm) is None


def test_retry_after_in_every_form():
    now = 1_700_000_000.0
    date = email.utils.formatdate(now + 20, usegmt=True)
    assert retry_after_s({"retry-after": "20"}) == 20
    assert retry_after_s({"retry-after-ms": "1500", "retry-after": "99"}) == 1.5
    assert retry_after_s({"retry-after": date}, now=lambda: now) == pytest.approx(20)
    assert retry_after_s({"retry-after": "soon"}) is None
    assert retry_after_s({"retry-after": "-5"}) == 0
    assert retry_after_s({}) is None and retry_after_s(None) is None


def test_a_429s_retry_after_header_reaches_the_classification():
    response = httpx.Response(
        429, headers={"retry-after": "7"}, request=httpx.Request("POST", "http://x")
    )
    exc = litellm.RateLimitError("slow", llm_provider="openai", model="m", response=response)
    assert classify(exc, litellm=litellm).retry_after_s == 7


class LadderClient:
    replay = False

    def __init__(self, too_long):
        self.too_long = set(too_long)
        self.asked = []

    def ladder(self, role):
        return ["small/model", "big/model"]

    def complete(self, model, messages, *, metadata):
        self.asked.append(model)
        if model in self.too_long:
            raise litellm.ContextWindowExceededError("too long", model=model, llm_provider="x")
        return Completion(json.dumps(VALID_ANSWERS["prover"]), 10, 5, 0.001)


CALL = AgentCall(
    task="prover",
    role="prover",
    result="lem:median",
    obligation="s1",
    inputs=MINIMAL_INPUTS["prover"],
)


def test_a_context_window_error_falls_to_the_next_model_of_the_role():
    client, events, charges = LadderClient({"small/model"}), [], []
    runner = AgentRunner(
        Config(),
        client=client,
        on_event=lambda e: events.append(e.as_event()),
        rng=random.Random(0),
        before_request=lambda request: charges.append((request["model"], request["free"])),
    )
    reply = runner.call(CALL, model="small/model")
    assert reply.model == "big/model" and client.asked == ["small/model", "big/model"]
    assert [e["type"] for e in events] == ["model_fallback", "model_call"]
    # The action's start paid for one request: the fallback's is charged (was: free).
    assert charges == [("small/model", True), ("big/model", False)]


def test_when_no_model_fits_the_run_stops_resumably():
    client = LadderClient({"small/model", "big/model"})
    with pytest.raises(ModelUnavailableError, match="larger window"):
        AgentRunner(Config(), client=client).call(CALL, model="small/model")


def test_a_retry_after_beyond_max_wait_is_not_waited():
    class Always429:
        replay = False

        def ladder(self, role):
            return ["m"]

        def complete(self, model, messages, *, metadata):
            response = httpx.Response(
                429, headers={"retry-after": "3600"}, request=httpx.Request("POST", "http://x")
            )
            raise litellm.RateLimitError("later", llm_provider="x", model="m", response=response)

    sleeps = []
    runner = AgentRunner(
        Config(retry=RetryConfig(max_wait_s=60)), client=Always429(), sleep=sleeps.append
    )
    with pytest.raises(ModelUnavailableError, match="max_wait_s"):
        runner.call(CALL, model="m")
    assert sleeps == []

"""Rate limits and transient errors, with a fake client (no litellm request) and no real sleep."""

import json
import random

import litellm
import pytest

from paperlint.agents.client import Completion, redact
from paperlint.agents.runner import AgentCall, AgentRunner, backoff_delay
from paperlint.config import Config, RetryConfig
from paperlint.errors import ModelError

from .conftest import MINIMAL_INPUTS, VALID_ANSWERS


class FlakyFakeClient:
    """Raises the given errors in turn, then answers validly."""

    replay = False

    def __init__(self, errors):
        self.errors = list(errors)
        self.requests = 0

    def ladder(self, role):
        return ["fake/model"]

    def complete(self, model, messages, *, metadata):
        self.requests += 1
        if self.errors:
            raise self.errors.pop(0)
        return Completion(json.dumps(VALID_ANSWERS["gate"]), 10, 5, 0.002)


def _rate_limit():
    return litellm.RateLimitError("slow down", llm_provider="fake", model="fake/model")


def _runner(client, events, sleeps, **retry):
    config = Config(retry=RetryConfig(**retry))
    return AgentRunner(
        config,
        client=client,
        on_event=lambda e: events.append(e.as_event()),
        sleep=sleeps.append,
        rng=random.Random(0),
    )


CALL = AgentCall(task="gate", role="gate", result="lem:median", inputs=MINIMAL_INPUTS["gate"])


def test_fake_rate_limit_is_waited_out_then_succeeds():
    client = FlakyFakeClient([_rate_limit(), _rate_limit()])
    events, sleeps = [], []
    reply = _runner(client, events, sleeps, base_delay_s=1, max_delay_s=30).call(
        CALL, model="fake/model"
    )
    assert reply.output.decision == "PASS" and reply.cost_usd == pytest.approx(0.002)
    assert client.requests == 3
    retries = [e for e in events if e["type"] == "retry"]
    assert [e["wait_s"] for e in retries] == pytest.approx(sleeps, abs=1e-3)
    assert 0.5 <= sleeps[0] <= 1 and 1 <= sleeps[1] <= 2
    assert retries[0]["role"] == "gate" and retries[0]["model"] == "fake/model"
    assert "RateLimitError" in retries[0]["error"]
    assert [e["type"] for e in events] == ["retry", "retry", "model_call"]


def test_fake_transient_errors_give_up_after_max_attempts():
    errors = [
        litellm.APIConnectionError("reset", llm_provider="fake", model="fake/model"),
        litellm.Timeout("slow", model="fake/model", llm_provider="fake"),
        litellm.ServiceUnavailableError("down", llm_provider="fake", model="fake/model"),
    ]
    client = FlakyFakeClient(errors)
    events, sleeps = [], []
    with pytest.raises(ModelError, match="failed 3 times"):
        _runner(client, events, sleeps, max_attempts=3).call(CALL, model="fake/model")
    assert client.requests == 3 and len(sleeps) == 2
    assert not [e for e in events if e["type"] == "model_call"]


def test_fake_non_transient_error_is_not_retried():
    client = FlakyFakeClient([ModelError("model fake/model failed: bad request")])
    sleeps = []
    with pytest.raises(ModelError, match="bad request"):
        _runner(client, [], sleeps).call(CALL, model="fake/model")
    assert client.requests == 1 and sleeps == []


def test_backoff_grows_is_capped_and_honours_retry_after():
    rng = random.Random(1)
    waits = [backoff_delay(n, base_s=2, max_s=10, rng=rng) for n in range(1, 7)]
    assert all(w <= 10 for w in waits) and waits[0] <= 2 and waits[-1] >= 5
    # Retry-After is a floor (plus at most 1 s of jitter), and is not cut to max_s.
    assert 20 <= backoff_delay(1, base_s=1, max_s=60, rng=rng, retry_after_s=20) <= 21
    assert 20 <= backoff_delay(1, base_s=1, max_s=5, rng=rng, retry_after_s=20) <= 21


def test_error_text_in_events_masks_keys():
    text = redact("Incorrect API key provided: sk-abcdefghijklmnop1234 (api_key=abcd1234efgh)")
    assert "sk-abcdefghijklmnop1234" not in text and "abcd1234efgh" not in text


def test_before_request_sees_every_request_and_can_stop_the_call():
    client = FlakyFakeClient([_rate_limit()])
    seen = []
    runner = AgentRunner(Config(), client=client, sleep=lambda s: None, before_request=seen.append)
    runner.call(CALL, model="fake/model")
    assert [(r["try"], r["repair"], r["model"]) for r in seen] == [
        (1, 0, "fake/model"),
        (2, 0, "fake/model"),
    ]

    class BudgetExhausted(Exception):
        pass

    def refuse(request):
        raise BudgetExhausted(request["task"])

    client = FlakyFakeClient([])
    with pytest.raises(BudgetExhausted):
        AgentRunner(Config(), client=client, before_request=refuse).call(CALL, model="fake/model")
    assert client.requests == 0


def test_no_model_is_a_model_error_before_any_request():
    client = FlakyFakeClient([])
    with pytest.raises(ModelError, match="no model configured for role gate"):
        AgentRunner(Config(), client=client).call(CALL, model="")
    assert client.requests == 0

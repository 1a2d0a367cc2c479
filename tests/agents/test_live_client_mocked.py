"""LiteLLMClient against litellm's own `mock_response` (no network): usage, cost, errors."""

import litellm
import pytest

from paperlint.agents.client import LiteLLMClient, import_litellm, transient_errors
from paperlint.config import Config
from paperlint.errors import ModelError

MESSAGES = [{"role": "user", "content": "hi"}]


@pytest.fixture
def mocked_litellm(monkeypatch):
    """litellm.completion answering from `mock_response`, so the real parsing path runs."""
    real = import_litellm().completion
    seen = {}

    def completion(**kwargs):
        seen.update(kwargs)
        return real(mock_response='{"ok": true}', **kwargs)

    monkeypatch.setattr(litellm, "completion", completion)
    return seen


def test_mocked_known_model_reports_tokens_and_a_price(mocked_litellm):
    client = LiteLLMClient(Config())
    done = client.complete("openai/gpt-4o-mini", MESSAGES, metadata={"paperlint": {"task": "x"}})
    assert done.text == '{"ok": true}'
    assert done.tokens_in and done.tokens_out
    assert done.cost_usd is not None and done.cost_usd > 0
    # litellm's own retries are off: the runner retries, so each request is seen once.
    assert mocked_litellm["num_retries"] == 0 and mocked_litellm["max_retries"] == 0
    assert mocked_litellm["metadata"]["paperlint"] == {"task": "x"}


def test_mocked_unknown_model_has_unknown_cost_not_zero(mocked_litellm):
    done = LiteLLMClient(Config()).complete("openai/no-such-model-xyz", MESSAGES, metadata={})
    assert done.cost_usd is None


def test_mocked_auth_failure_is_a_model_error_without_the_key(monkeypatch):
    def completion(**kwargs):
        raise litellm.AuthenticationError(
            "Incorrect API key provided: sk-proj-abcdefghijklmnop",
            llm_provider="openai",
            model="gpt-4o-mini",
        )

    import_litellm()
    monkeypatch.setattr(litellm, "completion", completion)
    with pytest.raises(ModelError) as err:
        LiteLLMClient(Config()).complete("openai/gpt-4o-mini", MESSAGES, metadata={})
    assert "abcdefghijklmnop" not in str(err.value)


def test_mocked_rate_limit_propagates_for_the_runner_to_wait_out(monkeypatch):
    def completion(**kwargs):
        raise litellm.RateLimitError("slow down", llm_provider="openai", model="gpt-4o-mini")

    import_litellm()
    monkeypatch.setattr(litellm, "completion", completion)
    with pytest.raises(transient_errors()):
        LiteLLMClient(Config()).complete("openai/gpt-4o-mini", MESSAGES, metadata={})

"""LiteLLMClient against litellm's own `mock_response` (no network): usage, cost, errors."""

import re

import litellm
import pytest

from paperlint.agents.client import LiteLLMClient, call_id, import_litellm, transient_errors
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


def test_mocked_priced_free_model_costs_a_real_zero(mocked_litellm):
    done = LiteLLMClient(Config()).complete("ollama/llama3", MESSAGES, metadata={})
    assert done.cost_usd == 0.0  # priced at 0 in litellm's map: $0, not unknown


def test_mocked_prices_from_the_config_price_an_unknown_model(mocked_litellm):
    config = Config.model_validate(
        {
            "prices": {
                "openai/no-such-model-xyz": {
                    "input_cost_per_token": 0.001,
                    "output_cost_per_token": 0.002,
                }
            }
        }
    )
    done = LiteLLMClient(config).complete("openai/no-such-model-xyz", MESSAGES, metadata={})
    assert done.cost_usd == pytest.approx(0.001 * done.tokens_in + 0.002 * done.tokens_out)


def test_role_settings_reach_litellm(mocked_litellm, monkeypatch):
    monkeypatch.setenv("MY_KEY", "sk-role-key-123456")
    config = Config.model_validate(
        {
            "roles": {
                "gate": {
                    "api_base": "http://127.0.0.1:9/v1",
                    "api_key_env": "MY_KEY",
                    "timeout_s": 12,
                    "temperature": 0.2,
                    "max_tokens": 321,
                    "headers": {"X-Team": "maths"},
                }
            }
        }
    )
    meta = {"paperlint": {"task": "gate", "role": "gate", "result": "lem:x", "attempt": 1}}
    LiteLLMClient(config).complete("openai/gpt-4o-mini", MESSAGES, metadata=meta)
    seen = mocked_litellm
    assert (seen["api_base"], seen["api_key"], seen["timeout"]) == (
        "http://127.0.0.1:9/v1",
        "sk-role-key-123456",
        12,
    )
    assert (seen["temperature"], seen["max_tokens"]) == (0.2, 321)
    assert seen["extra_headers"]["X-Team"] == "maths"
    # an opaque id of the call: no result label, obligation or attempt count in the header
    call = seen["extra_headers"]["X-Paperlint-Call"]
    salt = seen["extra_headers"]["X-Paperlint-Run"]
    assert call == call_id(salt, "gate", "lem:x", None, 1, 0) and "lem" not in call
    assert re.fullmatch(r"[0-9a-f]{32}", call)
    assert call != call_id(salt, "gate", "lem:x", None, 1, 1)  # a repair is another call
    # salted per run: the same call of another run (another user, paper) has another id
    LiteLLMClient(config).complete("openai/gpt-4o-mini", MESSAGES, metadata=meta)
    assert mocked_litellm["extra_headers"]["X-Paperlint-Call"] != call
    # gpt-4o-mini takes a response schema, so the gate's output model is sent as one
    assert seen["response_format"]["json_schema"]["name"] == "gate"


def test_a_real_request_without_a_key_stops_at_once_and_names_the_variable(monkeypatch):
    # Not mocked: litellm's openai path refuses before any network with a 500 ("Missing
    # credentials"), which was waited out as transient until the run gave up.
    from paperlint.agents.faults import ModelUnavailableError

    for name in ("OPENAI_API_KEY", "OPENAI_ADMIN_KEY", "OPENAI_BASE_URL", "OPENAI_API_BASE"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(ModelUnavailableError) as err:
        LiteLLMClient(Config()).complete("openai/gpt-4o-mini", MESSAGES, metadata={})
    assert err.value.kind == "auth"
    assert "$OPENAI_API_KEY" in err.value.fix

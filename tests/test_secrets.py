"""`paperlint.secrets`: registered values are masked in every form they are written in."""

import html
import io
import json

import pytest

from paperlint import secrets
from paperlint.config import RoleSettings


@pytest.fixture(autouse=True)
def _clean():
    secrets.forget()
    yield
    secrets.forget()


@pytest.mark.parametrize(
    "value",
    [
        "sk-ant-api03-abcdefghijklmnop",
        "4f3c2b1a-9d8e-4c7b-a6f5-0e1d2c3b4a59",
        "dGhpcyBpcyBhIHNlY3JldA+/xYz==",
        'pa$$"w<0>rd&key\\zz',
        "ключ-секрет-12345",
    ],
)
def test_a_value_is_masked_raw_and_inside_json_html_and_repr(value):
    secrets.remember([value])
    for form in (value, json.dumps(value)[1:-1], html.escape(value), repr(value)[1:-1]):
        text = f"error: {form}!"
        assert value not in secrets.scrub(text)
        assert secrets.scrub(text) == "error: [redacted]!"
        assert secrets.scrub_bytes(text.encode()) == b"error: [redacted]!"


def test_short_values_and_unset_variables_are_not_registered(monkeypatch):
    monkeypatch.setenv("SHORT", "abc")
    monkeypatch.delenv("UNSET", raising=False)
    secrets.remember_roles(
        {"a": RoleSettings(api_key_env="SHORT"), "b": RoleSettings(api_key_env="UNSET")}
    )
    assert secrets.scrub("abc and more") == "abc and more"


def test_role_keys_and_credential_headers_are_registered(monkeypatch):
    monkeypatch.setenv("MY_KEY", "a-long-enough-key-value")
    roles = {
        "default": RoleSettings(api_key_env="MY_KEY"),
        "gate": RoleSettings(
            headers={"Authorization": "Bearer hdr-token-value", "X-Team": "provers"}
        ),
    }
    secrets.remember_roles(roles)
    text = "a-long-enough-key-value hdr-token-value provers"
    assert secrets.scrub(text) == "[redacted] [redacted] provers"


def test_the_terminal_stream_masks_what_is_written():
    secrets.remember(["terminal-secret-1"])
    out = io.StringIO()
    stream = secrets.ScrubbedStream(out)
    stream.write("key terminal-secret-1\n")
    assert out.getvalue() == "key [redacted]\n"

"""docs/config.md is generated from the config models and documents every key."""

import tomllib
from pathlib import Path

import pytest

from paperlint.cli.config_docs import keys, render_config_docs
from paperlint.config import Config, load_config
from paperlint.errors import InputError

ROOT = Path(__file__).resolve().parents[2]


def test_config_reference_is_up_to_date():
    committed = (ROOT / "docs" / "config.md").read_text(encoding="utf-8")
    assert committed == render_config_docs(), (
        "docs/config.md is stale: run `python -m paperlint.cli.config_docs`"
    )


def test_every_key_has_a_type_a_default_and_a_meaning():
    text = render_config_docs()
    all_keys = keys(Config)
    assert len(all_keys) >= 17
    for section, key, field in all_keys:
        assert field.description, f"[{section}] {key} has no description"
        assert f"| `{key}` |" in text
        assert f"## `[{section}]`" in text


def test_the_documented_defaults_are_the_real_ones(tmp_path):
    config = load_config(None, start=tmp_path).config
    text = render_config_docs()
    assert f"| `timeout_s` | `float` | `{config.lean.timeout_s:g}` |" in text.replace(".0`", "`")


def test_every_unknown_key_is_reported_with_a_suggestion(tmp_path):
    path = tmp_path / "paperlint.toml"
    path.write_text("[budget]\nmax_cost = 5\nmax_cals = 3\n[lean]\ntimeout = 1\n[modles]\nx = 1\n")
    tomllib.loads(path.read_text())  # valid TOML: only the keys are wrong
    with pytest.raises(InputError) as caught:
        load_config(path, start=tmp_path)
    message = str(caught.value)
    for wrong, right in [
        ("budget.max_cost", "budget.max_cost_usd"),
        ("budget.max_cals", "budget.max_calls"),
        ("lean.timeout", "lean.timeout_s"),
        ("modles", "models"),
    ]:
        assert f"unknown config key '{wrong}'" in message
        assert f"did you mean '{right}'?" in message
    assert "docs/config.md" in str(caught.value.hint)
    for section in ("[automation]", "[faithfulness]", "[preflight]", "[prices]"):
        assert section in str(caught.value.hint)  # every section the file may hold
    assert (ROOT / "docs" / "config.md").is_file()  # the hint names a file that exists

import tomllib

import pytest
from pydantic import ValidationError

from paperlint.config import (
    Config,
    dump_config_toml,
    find_config_file,
    load_config,
    load_snapshot,
)
from paperlint.errors import InputError


@pytest.fixture
def project(tmp_path):
    (tmp_path / ".git").mkdir()
    return tmp_path


def test_defaults_configure_no_model(project):
    loaded = load_config(None, start=project)
    assert loaded.files == ()
    assert loaded.config.models.ladder("prover") == []
    assert loaded.config.models.drafter is None
    assert loaded.config.budget.prover_attempts == 4


def test_paperlint_toml_is_found_from_the_paper(project):
    (project / "paperlint.toml").write_text(
        '[models]\ndrafter = "openai/gpt-x"\nprover = ["cheap/m", "strong/m"]\n'
        "[budget]\nmax_cost_usd = 12.5\n"
    )
    paper_dir = project / "paper"
    paper_dir.mkdir()
    loaded = load_config(None, start=paper_dir / "paper.tex")
    assert loaded.files == (project / "paperlint.toml",)
    assert loaded.config.models.drafter == "openai/gpt-x"
    assert loaded.config.models.ladder("prover") == ["cheap/m", "strong/m"]
    assert loaded.config.budget.max_cost_usd == 12.5


def test_pyproject_tool_table_is_read(project):
    (project / "pyproject.toml").write_text(
        '[project]\nname = "x"\n[tool.paperlint.models]\ngate = "anthropic/claude"\n'
    )
    loaded = load_config(None, start=project)
    assert loaded.files == (project / "pyproject.toml",)
    assert loaded.config.models.gate == "anthropic/claude"


def test_pyproject_without_tool_table_is_not_a_config(project):
    (project / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert find_config_file(project) is None


def test_unknown_key_names_the_file_and_the_key(project):
    path = project / "paperlint.toml"
    path.write_text("[budget]\nmax_cost = 5\n")
    with pytest.raises(InputError) as err:
        load_config(None, start=project)
    assert err.value.path == str(path) and err.value.line == 2
    assert "budget.max_cost" in str(err.value)


def test_unknown_section_in_pyproject_is_named(project):
    (project / "pyproject.toml").write_text("[tool.paperlint.modles]\ngate = 'x'\n")
    with pytest.raises(InputError, match="unknown config key 'modles'"):
        load_config(None, start=project)


def test_bad_value_and_bad_toml_are_input_errors(project):
    path = project / "paperlint.toml"
    path.write_text("[budget]\nmax_calls = 'many'\n")
    with pytest.raises(InputError, match="budget.max_calls"):
        load_config(path, start=project)
    path.write_text("[budget\n")
    with pytest.raises(InputError, match="invalid TOML") as err:
        load_config(path, start=project)
    assert err.value.line == 1


def test_explicit_missing_file_is_an_input_error(project):
    with pytest.raises(InputError, match="not found"):
        load_config(project / "nope.toml", start=project)


def test_cli_overrides_beat_the_file(project):
    (project / "paperlint.toml").write_text("[budget]\nmax_calls = 10\nmax_cost_usd = 3.0\n")
    loaded = load_config(None, start=project, cli={"budget": {"max_calls": 99}})
    assert loaded.config.budget.max_calls == 99
    assert loaded.config.budget.max_cost_usd == 3.0


def test_config_is_frozen():
    config = Config()
    with pytest.raises(ValidationError):
        config.budget.max_calls = 3  # type: ignore[misc]


def test_with_overrides_changes_only_what_is_passed():
    config = Config.model_validate({"budget": {"max_calls": 10, "max_cost_usd": 2.0}})
    changed = config.with_overrides(max_cost_usd=7.5)
    assert changed.budget.max_cost_usd == 7.5 and changed.budget.max_calls == 10
    assert config.budget.max_cost_usd == 2.0
    assert config.with_overrides(max_calls=None).budget.max_calls is None
    with pytest.raises(InputError, match="max_calls"):
        config.with_overrides(max_calls=-1)


def test_snapshot_round_trips_with_extra_tables():
    config = Config.model_validate(
        {"models": {"prover": ["a/b", 'we"ird\\model'], "gate": "g/h"}, "lean": {"timeout_s": 30}}
    )
    run = {"paperlint_version": "0.1.0", "replay": ["model"], "pins": {"lean": "v4", "n": 2}}
    text = dump_config_toml(config, {"run": run, "odd key": {"x": 1.5}})
    tomllib.loads(text)  # valid TOML
    again, extra = load_snapshot(text)
    assert again == config
    assert extra == {"run": run, "odd key": {"x": 1.5}}
    assert "# drafter = (not set)" in text


def test_a_roles_own_table_overrides_the_default_key_by_key(project):
    (project / "paperlint.toml").write_text(
        '[roles.default]\napi_base = "http://localhost:9"\napi_key_env = "TEAM_KEY"\n'
        'timeout_s = 20\n[roles.default.headers]\nX-Team = "a"\n'
        '[roles.prover]\nmax_tokens = 512\n[roles.prover.headers]\nX-Role = "p"\n'
    )
    config = load_config(None, start=project / "paper.tex").config
    prover = config.role_settings("prover")
    # before: the prover's table replaced the default whole, losing the endpoint and its key
    assert (prover.api_base, prover.api_key_env, prover.timeout_s) == (
        "http://localhost:9",
        "TEAM_KEY",
        20,
    )
    assert prover.max_tokens == 512 and prover.headers == {"X-Team": "a", "X-Role": "p"}
    assert config.role_settings("drafter") == config.roles["default"]
    # the snapshot a run writes reads back to the same resolved roles (resume = check)
    again, _ = load_snapshot(dump_config_toml(config))
    assert again.role_settings("prover") == prover
    assert again.role_settings("auditor") == config.roles["default"]

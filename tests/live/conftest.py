"""Helpers for driving `paperlint check` through litellm against the loopback provider."""

import json
from pathlib import Path

import pytest

# litellm's import is slow; pay it once per session, outside every test's timing.
import paperlint.agents.client as client_module
from tests.engine.conftest import example, verdicts
from tests.live.loopback import LoopbackProvider

client_module.import_litellm()

EXAMPLE = example("sample-variance")
REPLAY = EXAMPLE / "replay"
ANSWER_KEY = json.loads((EXAMPLE / "answer-key.json").read_text())
ROLES = ("architect", "drafter", "gate", "auditor", "issue_checker")


def write_config(
    folder: Path,
    url: str,
    *,
    price: bool = True,
    timeout_s: float = 5.0,
    max_attempts: int = 4,
    extra: str = "",
    key_env: str = "LOOPBACK_KEY",
    models: dict[str, str] | None = None,
) -> Path:
    """A config sending every role to the loopback server (`models`: other model names for
    some roles, all priced alike)."""
    chosen = {role: (models or {}).get(role, "openai/loopback") for role in ROLES}
    lines = ["[models]"]
    lines += [f'{role} = "{model}"' for role, model in chosen.items()]
    lines += ['prover = ["openai/loopback"]', ""]
    lines += [
        "[roles.default]",
        f'api_base = "{url}"',
        f'api_key_env = "{key_env}"',
        f"timeout_s = {timeout_s}",
        "",
        "[retry]",
        f"max_attempts = {max_attempts}",
        "base_delay_s = 0.01",
        "max_delay_s = 0.05",
        "max_wait_s = 5",
        "",
    ]
    if price:
        for model in dict.fromkeys(["openai/loopback", *chosen.values()]):
            lines += [
                f'[prices."{model}"]',
                "input_cost_per_token = 0.000001",
                "output_cost_per_token = 0.000002",
                "",
            ]
    path = folder / "paperlint.toml"
    path.write_text("\n".join(lines) + extra, encoding="utf-8")
    return path


def check_argv(tmp_path: Path, config: Path, *more: str) -> list[str]:
    return [
        "check",
        str(EXAMPLE / "paper.tex"),
        "--config",
        str(config),
        "--workdir",
        str(tmp_path / "ws"),
        "--lean-replay",
        str(REPLAY),
        "--jobs",
        "1",  # these count the serial run's requests; parallel runs: tests/engine/test_parallel*
        *more,
    ]


def events(workdir: Path) -> list[dict]:
    lines = (workdir / "events.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines if line.strip()]


@pytest.fixture(autouse=True)
def _forget_secrets():
    """A live client registers its keys for masking process-wide: forget them per test."""
    from paperlint import secrets

    yield
    secrets.forget()


@pytest.fixture
def key_env(monkeypatch):
    monkeypatch.setenv("LOOPBACK_KEY", "sk-loopback-test-key")


@pytest.fixture
def provider():
    with LoopbackProvider(REPLAY / "transcript.jsonl") as server:
        yield server


__all__ = ["ANSWER_KEY", "check_argv", "events", "verdicts", "write_config"]

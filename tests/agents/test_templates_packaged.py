"""The prompt templates must ship in the wheel, or an installed paperlint cannot call a model."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
AGENTS = ROOT / "paperlint" / "agents"


def test_package_data_globs_reach_every_template():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    package_data = config["tool"]["setuptools"]["package-data"]
    patterns = [*package_data.get("*", []), *package_data.get("paperlint.agents", [])]
    # setuptools globs each pattern from the package folder, as Path.glob does.
    shipped = {path for pattern in patterns for path in AGENTS.glob(pattern)}
    templates = set((AGENTS / "templates").glob("*.j2"))
    assert templates and templates <= shipped

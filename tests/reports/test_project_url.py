"""paperlint's URL is stated once, in pyproject's [project.urls], and the SARIF links follow it."""

import tomllib
from pathlib import Path

import paperlint.project
import paperlint.reports.sarif
from paperlint.project import repository_url
from paperlint.reports.load import load_workspace
from paperlint.reports.sarif import render_sarif

ROOT = Path(__file__).resolve().parents[2]
SKIP_DIRS = {
    ".git",
    ".venv",
    "node_modules",
    "__pycache__",
    ".mypy_cache",
    ".ruff_cache",
    "build",
    "dist",
}
# build/ and dist/: setuptools copies of the sources (a wheel build leaves them)


def _declared() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["urls"]["Repository"]


def test_the_url_comes_from_pyproject_and_is_written_nowhere_else():
    url = _declared()
    assert repository_url() == url.rstrip("/")
    host_path = url.split("://", 1)[1]
    holders = []
    for path in ROOT.rglob("*"):
        parts = set(path.relative_to(ROOT).parts)
        if parts & SKIP_DIRS or any(p.endswith(".egg-info") for p in parts) or not path.is_file():
            continue
        if path.suffix not in {".py", ".md", ".toml", ".yaml", ".yml", ".j2", ".cfg", ".txt"}:
            continue
        if host_path in path.read_text(encoding="utf-8", errors="replace"):
            holders.append(path.relative_to(ROOT).as_posix())
    assert holders == ["pyproject.toml"]


def test_sarif_links_are_built_from_it(workspace):
    sarif = render_sarif(load_workspace(workspace))
    driver = sarif["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == _declared().rstrip("/")
    for rule in driver["rules"]:
        assert rule["helpUri"].startswith(driver["informationUri"] + "/blob/main/docs/sarif.md#")


def test_an_unknown_url_leaves_the_links_out_rather_than_inventing_one(workspace, monkeypatch):
    monkeypatch.setattr(paperlint.reports.sarif, "repository_url", lambda: None)
    driver = render_sarif(load_workspace(workspace))["runs"][0]["tool"]["driver"]
    assert "informationUri" not in driver
    assert all("helpUri" not in rule for rule in driver["rules"])
    assert paperlint.project.LABEL == "Repository"

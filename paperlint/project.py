"""paperlint's own project URL, stated once: pyproject's `[project.urls]` `Repository`.

Read from the installed distribution's metadata (`Project-URL: Repository, …`), or, in a source
tree that was never installed, from the pyproject.toml beside the package. No real public
repository is known yet: the entry is a placeholder (docs/ci.md says so); changing it there
changes every place that links to paperlint (the SARIF report's `informationUri`/`helpUri`).
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib.metadata import PackageNotFoundError, metadata
from pathlib import Path

LABEL = "Repository"


@cache
def repository_url() -> str | None:
    """The `Repository` URL of `[project.urls]`, without a trailing slash; None if unknown."""
    try:
        entries = [str(e) for e in metadata("paperlint").get_all("Project-URL") or []]
    except PackageNotFoundError:
        entries = []
    for entry in entries:
        label, _, url = entry.partition(",")
        if label.strip().lower() == LABEL.lower() and url.strip():
            return url.strip().rstrip("/")
    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    if pyproject.is_file():
        urls = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project", {})
        url = urls.get("urls", {}).get(LABEL)
        if isinstance(url, str) and url:
            return url.rstrip("/")
    return None

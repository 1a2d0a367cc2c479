from pathlib import Path

import pytest

from tests.reports.workspace_factory import build_workspace


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A complete synthetic workspace of a replayed run (see workspace_factory)."""
    return build_workspace(tmp_path)

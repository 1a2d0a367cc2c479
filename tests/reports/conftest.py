from pathlib import Path

import pytest

from paperlint.cli.root import run
from tests.reports.workspace_factory import build_workspace

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "sample-variance"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A complete synthetic workspace of a replayed run (see workspace_factory)."""
    return build_workspace(tmp_path)


@pytest.fixture(scope="session")
def example(tmp_path_factory) -> Path:
    """The README's example: the real CLI on the replayed sample-variance paper."""
    out = tmp_path_factory.mktemp("example") / "ws"
    rc = run(["check", str(FIXTURE / "paper.tex"), "--replay", str(FIXTURE / "replay")]
             + ["--workdir", str(out), "--fresh"])  # fmt: skip
    assert rc == 1  # the example records two issues
    return out

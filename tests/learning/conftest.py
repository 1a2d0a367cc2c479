from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def example_workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample-variance example checked once from its replay (4 verdict-bearing results)."""
    from paperlint.cli.root import run

    work = tmp_path_factory.mktemp("example") / "ws"
    fixture = ROOT / "fixtures" / "sample-variance"
    code = run(
        [
            "check",
            str(fixture / "paper.tex"),
            "--replay",
            str(fixture / "replay"),
            "--workdir",
            str(work),
        ]
    )
    assert code == 1, "the example records two issues"
    return work

"""docs/cli.md is generated from the CLI and must name every command."""

from paperlint.cli.docs import render_cli_docs
from tests.conftest import ROOT


def test_cli_reference_is_up_to_date():
    committed = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    stale = "docs/cli.md is stale: run `python -m paperlint.cli.docs`"
    assert committed == render_cli_docs(), stale


def test_every_command_is_documented():
    text = render_cli_docs()
    for command in (
        "preflight",
        "check",
        "resume",
        "status",
        "report",
        "validate",
        "replay",
        "revise",
        "doctor",
        "setup",
        "lean scan",
    ):
        assert f"## `paperlint {command}`" in text

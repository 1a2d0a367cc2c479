"""The MCP tools come from the CLI itself: every command is a tool or excluded with a reason."""

import typer.main

from paperlint.cli.mcp_cmd import verbs as cli_verbs
from paperlint.cli.root import _register_commands, app
from paperlint.mcp.tools import EXCLUDED, MAX_JSON, MAX_TEXT, outcome


def _cli_paths():
    _register_commands()
    out = []

    def walk(command, path):
        if getattr(command, "commands", None):
            for name, sub in command.commands.items():
                walk(sub, (*path, name))
        else:
            out.append(" ".join(path))

    walk(typer.main.get_command(app), ())
    return out


def test_every_cli_command_is_a_tool_or_excluded_with_a_reason():
    verbs = cli_verbs()
    for path in _cli_paths():
        assert path.replace(" ", "_") in verbs or EXCLUDED.get(path), path
    assert set(EXCLUDED) == {"setup", "mcp"}


def test_a_tool_call_is_the_command_line_a_person_types():
    verb = cli_verbs()["check"]
    argv = verb.argv({"paper": "p.tex", "fresh": True, "max_cost": 2.5, "replay": "r"})
    assert argv == ["check", "p.tex", "--max-cost", "2.5", "--replay", "r", "--fresh",
                    "--format", "json"]  # fmt: skip
    scan = cli_verbs()["lean_scan"]
    assert scan.argv({"files": ["a.lean", "b"]})[:4] == ["lean", "scan", "a.lean", "b"]
    schema = verb.input_schema()
    assert schema["properties"]["max_cost"]["type"] == "number"
    assert schema["properties"]["fresh"]["type"] == "boolean"
    assert schema["required"] == ["paper"]


def test_unknown_or_missing_arguments_are_usage_errors_not_guesses():
    verb = cli_verbs()["status"]
    for arguments in ({"workdir": "w", "nope": 1}, {}):
        try:
            verb.argv(arguments)
        except ValueError as exc:
            assert "argument" in str(exc)
        else:
            raise AssertionError(arguments)


def test_outcome_separates_success_from_findings_and_names_errors():
    findings = outcome(1, '[{"rule": "sorry"}]', "")
    assert findings["success"] and findings["result"] == [{"rule": "sorry"}]
    usage = outcome(2, "", "x.txt: error: not a paper: .txt\n  hint: pass a .tex file\n")
    assert not usage["success"] and usage["error"] == {"code": "usage", "hint": "pass a .tex file"}
    crash = outcome(3, "", "internal error: boom\n  a crash log was written to /tmp/c.log\n")
    assert crash["error"]["code"] == "internal"
    big = outcome(0, "[" + ",".join(["1"] * MAX_JSON) + "]", "e" * (MAX_TEXT * 2))
    assert big["truncated"] and big["result"] is None and "-o FILE" in big["hint"]
    assert len(big["stderr"]) <= MAX_TEXT

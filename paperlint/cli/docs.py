"""Generate `docs/cli.md` from the typer app, so the reference cannot drift from the code.

`python -m paperlint.cli.docs` rewrites the file; `tests/test_docs.py` fails when it is stale.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer


def _rows(command: Any) -> list[str]:
    lines = []
    for param in command.params:
        if param.param_type_name == "argument":
            name = (param.name or "").upper()
            lines.append(f"| `{name}` | argument | {param.help or ''} |".replace("\n", " "))
        else:
            flags = ", ".join(f"`{opt}`" for opt in [*param.opts, *param.secondary_opts])
            help_text = (param.help or "").replace("\n", " ")
            lines.append(f"| {flags} | option | {help_text} |")
    return lines


def _section(path: str, command: Any) -> list[str]:
    doc = (command.help or "").strip().splitlines()
    lines = [f"## `paperlint {path}`", "", doc[0] if doc else "", ""]
    rows = _rows(command)
    if rows:
        lines += ["| name | kind | meaning |", "|---|---|---|", *rows, ""]
    return lines


def _walk(group: Any, prefix: str) -> list[tuple[str, Any]]:
    found = []
    for name in sorted(group.commands):
        command = group.commands[name]
        path = f"{prefix}{name}"
        if hasattr(command, "commands"):
            found.extend(_walk(command, f"{path} "))
        else:
            found.append((path, command))
    return found


def render_cli_docs() -> str:
    from paperlint.cli.root import _register_commands, app

    _register_commands()
    group = typer.main.get_command(app)
    lines = [
        "# Command reference",
        "",
        "Generated from the CLI by `python -m paperlint.cli.docs`; do not edit by hand.",
        "",
        "Exit codes: 0 every checked result verified; 1 an issue recorded (or a finding, for",
        "`lean scan` and `validate`); 4 unfinished results remain and no issue; 5 nothing to",
        "check (the paper is empty or holds no theorem-like result: a warning says so); 2 usage",
        "or input error; 3 internal error (crash log written); 130 interrupted.",
        "",
    ]
    for path, command in _walk(group, ""):
        lines += _section(path, command)
    return "\n".join(lines).rstrip() + "\n"


if __name__ == "__main__":
    target = Path(__file__).resolve().parents[2] / "docs" / "cli.md"
    from paperlint.store import write_text_atomic

    write_text_atomic(target, render_cli_docs())
    print(target)

"""`paperlint lean scan`: the mechanical audit of Lean files, without Lean.

Exit codes: 0 when nothing blocks (advisories are printed), 1 on any blocking finding, 2 when a
file is missing. The work happens in `paperlint.lean.audit`, imported when the command runs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from paperlint.cli.options import FORMAT, VERBOSE
from paperlint.cli.plain import Format
from paperlint.cli.root import app, lean_app
from paperlint.diagnostics import gnu_line
from paperlint.errors import InputError
from paperlint.exitcodes import ExitCode

if TYPE_CHECKING:
    from paperlint.lean.findings import LeanFinding

app.add_typer(lean_app, name="lean")  # its commands: here and in lean_tools_cmd


@lean_app.command("scan")
def scan(
    files: list[Path] = typer.Argument(
        ..., metavar="PATH", help="Lean files, or folders to scan for .lean files."
    ),
    output: Format = FORMAT,
    project_root: Path | None = typer.Option(
        None, "--project-root", help="Where local imports are looked up (default: the Lake root)."
    ),
    hints: bool = typer.Option(
        False, "--hints", help="Also print unused-hypothesis hints that automation may explain."
    ),
    skeleton: Path | None = typer.Option(
        None, "--skeleton", help="The gated file: FILE may only fill its `sorry` holes."
    ),
    verbose: bool = VERBOSE,
) -> None:
    """Report sorry, axioms, native_decide, effects and other cheats in Lean files."""
    from paperlint.lean.audit import audit_files
    from paperlint.lean.findings import has_blocking

    files = lean_files(files)
    if project_root is not None and not project_root.is_dir():
        raise InputError("no such folder", path=project_root, hint="pass the Lake project root")
    if skeleton is not None and not skeleton.is_file():
        raise InputError("no such skeleton file", path=skeleton, hint="pass the gated .lean file")
    findings = audit_files(files, project_root=project_root, hints=hints, skeleton=skeleton)
    if output == Format.JSON:
        typer.echo(json.dumps([f.model_dump(mode="json") for f in findings], indent=2))
    else:
        for finding in findings:
            typer.echo(gnu_finding(finding))
    raise typer.Exit(ExitCode.ISSUE if has_blocking(findings) else ExitCode.VERIFIED)


def gnu_finding(finding: LeanFinding) -> str:
    """A finding as `file:line:column: error|warning: message [rule]` (paperlint.diagnostics):
    a blocking one is an error, an advisory a warning. The column is 1-based here, as GNU tools
    count (Lean prints 0-based columns; the JSON keeps Lean's `col`)."""
    severity, note = ("error", "") if finding.blocking else ("warning", " (advisory)")
    return gnu_line(
        finding.file, finding.line, finding.col + 1, severity, finding.message + note, finding.rule
    )


def lean_files(paths: list[Path]) -> list[Path]:
    """The files to scan: each file as given, each folder's `.lean` files (not `.lake/`)."""
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = sorted(
                p for p in path.rglob("*.lean") if ".lake" not in p.relative_to(path).parts
            )
            if not found:
                raise InputError("no .lean file in this folder", path=path, hint="check the path")
            out += found
        elif path.is_file():
            out.append(path)
        else:
            raise InputError("no such Lean file or folder", path=path, hint="check the path")
    return out

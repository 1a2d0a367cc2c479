"""`paperlint preflight`'s logic, without typer: list a paper's numbered results (docs/design.md
§4) and its diagnostics. Both ways the command starts call `preflight` — the typer command
(`paperlint.cli.preflight_cmd`, its options and help) and the small parser the pre-commit
hook's command takes (`paperlint.cli.fast`).

In a paper's repository (the pre-commit hook, CI) it runs with no PATH: the paper is
`[preflight] paper` of the nearest paperlint.toml, else the main file found in the current
folder. `--fail-on warning|error` exits 1 on a diagnostic that severe (except the codes of
`--ignore` and `[preflight] ignore`), and each diagnostic is printed with its path from the
current folder, so editors and CI annotators open the right file.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Union

from paperlint.cli.boundary import echo
from paperlint.cli.plain import Format, colour, paint, require_paper
from paperlint.errors import InputError
from paperlint.preflight import draft

if TYPE_CHECKING:
    from paperlint.preflight import model

AnyDiagnostic = Union["draft.DraftDiagnostic", "model.Diagnostic"]


class FailOn(StrEnum):
    ERROR = "error"
    WARNING = "warning"


_FAILS: dict[FailOn, frozenset[str]] = {
    FailOn.ERROR: frozenset({"error"}),
    FailOn.WARNING: frozenset({"error", "warning"}),
}


def preflight(
    path: Path | None,
    *,
    root: str | None = None,
    fmt: Format = Format.TEXT,
    output: Path | None = None,
    latex: bool = False,
    fail_on: FailOn | None = None,
    strict: bool = False,
    ignore: Sequence[str] = (),
    config: Path | None = None,
    quiet: bool = False,
) -> int:
    """List every numbered result with its number, label, place, proof and uses; the exit
    code (1 when a diagnostic is as severe as `fail_on`, or an error under `strict`)."""
    from paperlint.preflight.render import text_table

    path, ignored = _paper_and_ignored(path, config, ignore)
    require_paper(path)
    if latex and path.suffix.lower() == ".pdf":
        raise InputError("--latex needs the TeX sources", path=path, hint="drop --latex for a PDF")
    # Preflight's own records; the pydantic contract only where one is written or printed
    inventory: draft.DraftInventory | model.Inventory = _inventory(path, root)
    if latex or output is not None or (fmt == "json" and not quiet):
        inventory = _contract(inventory)
    if latex:
        from paperlint.preflight.latexcheck import apply_latex

        inventory = apply_latex(_contract(inventory), _project(path))
    if output is not None:
        from paperlint.records import write_record

        write_record(output, _contract(inventory))
    if quiet:
        pass
    elif fmt == "json":
        import json  # here: the hook's command prints text (~1.5 ms at start-up)

        dumped = _contract(inventory).model_dump(mode="json", by_alias=True)
        echo(json.dumps(dumped, indent=2))
    else:
        echo(text_table(inventory))
    _print_diagnostics(inventory.diagnostics, _project(path))
    threshold = FailOn.ERROR if strict and fail_on is None else fail_on
    return 1 if threshold and failing(inventory.diagnostics, threshold, ignored) else 0


def failing(
    diagnostics: Sequence[AnyDiagnostic], fail_on: FailOn, ignore: frozenset[str] = frozenset()
) -> list[AnyDiagnostic]:
    """The diagnostics that fail a run with `--fail-on fail_on`."""
    return [d for d in diagnostics if d.severity in _FAILS[fail_on] and d.code not in ignore]


def _paper_and_ignored(
    path: Path | None, config: Path | None, ignore: Sequence[str]
) -> tuple[Path, frozenset[str]]:
    """The paper to read and the codes never to fail on (the option's and the config's)."""
    from paperlint.configfiles import config_files

    start = path if path is not None else Path.cwd()
    if not config_files(config, start=start):  # no file: the defaults, read without pydantic
        return (path if path is not None else Path("."), frozenset(ignore))
    from paperlint.config import load_config

    loaded = load_config(config, start=start)
    settings = loaded.config.preflight
    ignored = frozenset([*ignore, *settings.ignore])
    if path is not None:
        return path, ignored
    if settings.paper is not None and loaded.files:
        paper = loaded.files[0].parent / settings.paper
        if not paper.exists():
            raise InputError(
                f"[preflight] paper = {settings.paper!r}: no such file or folder",
                path=loaded.files[0],
                hint="a path relative to the folder of this file",
            )
        return paper, ignored
    return Path("."), ignored


def _contract(inventory: draft.DraftInventory | model.Inventory) -> model.Inventory:
    return draft.contract(inventory) if isinstance(inventory, draft.DraftInventory) else inventory


def _inventory(path: Path, root: str | None) -> draft.DraftInventory | model.Inventory:
    """A PDF's inventory (the contract's records), or a TeX project's (preflight's own)."""
    from paperlint.preflight.inventory import build_draft, build_inventory

    try:
        if path.suffix.lower() == ".pdf":
            return build_inventory(path, root=root)
        return build_draft(path, root=root)
    except InputError as exc:
        if path != Path(".") or "candidate main files" not in exc.message:
            raise
        raise InputError(
            exc.message,
            path=exc.path,
            hint='name the paper: `paperlint preflight FILE`, or `paper = "FILE"` under '
            "[preflight] in a paperlint.toml at the repository's root (the pre-commit hook "
            "reads it)",
        ) from None


def _project(path: Path) -> Path:
    """The folder the inventory's file names are relative to (preflight's project folder)."""
    return path if path.is_dir() else path.parent


def _print_diagnostics(
    diagnostics: Sequence[draft.DraftDiagnostic | model.Diagnostic], project: Path
) -> None:
    """Each diagnostic on stderr, its file named from the current folder."""
    tty = colour(sys.stderr)
    for diagnostic in diagnostics:
        shown = Path(os.path.relpath(project / diagnostic.file)).as_posix()
        line = diagnostic.render(shown)
        if tty:
            severity = diagnostic.severity
            line = line.replace(severity, paint(severity, severity, enabled=True), 1)
        echo(line, err=True)

"""`paperlint library`: the reviewed lemma library (list, show, candidates, promote, remove)."""

from __future__ import annotations

import datetime as dt
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from paperlint.cli.options import VERBOSE
from paperlint.cli.root import app
from paperlint.errors import InputError

if TYPE_CHECKING:
    from paperlint.learning.library import Library

library_app = typer.Typer(
    help="The reviewed lemma library: helper lemmas a person promoted from past checks.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(library_app, name="library")

FORMATS = ("text", "json")


def _format(fmt: str) -> str:
    if fmt not in FORMATS:
        raise InputError(f"unknown format {fmt!r}", hint="use text or json")
    return fmt


def _library() -> Library:
    from paperlint.learning.library import Library, library_dir
    from paperlint.learning.userdata import user_data_dir

    return Library(library_dir(user_data_dir()))


@library_app.command("list")
def list_cmd(
    fmt: str = typer.Option("text", "--format", help="text or json"),
    verbose: bool = VERBOSE,
) -> None:
    """Every promoted lemma, its provenance and whether it needs re-verification."""
    from paperlint.learning.library import current_pins, entries_with_status

    _format(fmt)
    lib = _library()
    rows = entries_with_status(lib.manifest().entries, current_pins())
    if fmt == "json":
        payload = [{**e.model_dump(mode="json"), "status": s} for e, s in rows]
        typer.echo(json.dumps({"library": str(lib.root), "entries": payload}, indent=2))
        return
    typer.echo(f"{lib.root}: {len(rows)} lemma(s)")
    for entry, status in rows:
        typer.echo(
            f"  {entry.name:40} {status:22} from {entry.provenance.result} "
            f"(promoted {entry.promoted_at[:10]})"
        )


@library_app.command("show")
def show(
    name: str = typer.Argument(..., help="A library lemma, e.g. PaperlintLib.foo."),
    fmt: str = typer.Option("text", "--format", help="text or json"),
    verbose: bool = VERBOSE,
) -> None:
    """Print a promoted lemma's module."""
    _format(fmt)
    lib = _library()
    entry = lib.find(name)
    if entry is None:
        raise InputError(f"{name} is not in the library", hint="see `paperlint library list`")
    if fmt == "json":
        payload = {**entry.model_dump(mode="json"), "module_text": lib.module_text(entry)}
        typer.echo(json.dumps(payload, indent=2, ensure_ascii=False))
        return
    typer.echo(lib.module_text(entry), nl=False)


@library_app.command("candidates")
def candidates(
    workspace: Path = typer.Argument(..., help="A check workspace, e.g. paper.paperlint/."),
    fmt: str = typer.Option("text", "--format", help="text or json"),
    verbose: bool = VERBOSE,
) -> None:
    """The helper lemmas of a check's verified results, and which of them can be promoted."""
    from paperlint.learning.library import read_candidates

    _format(fmt)
    found = read_candidates(workspace)
    if fmt == "json":
        typer.echo(json.dumps([c.model_dump(mode="json") for c in found], indent=2))
        return
    if not found:
        typer.echo(f"{workspace}: no helper lemmas in verified results")
    for c in found:
        state = f"refused: {c.refused}" if c.refused else "can be promoted"
        typer.echo(f"{c.name} (from {c.provenance.result}): {state}")


@library_app.command("promote")
def promote(
    workspace: Path = typer.Argument(..., help="The check workspace the lemma comes from."),
    name: str = typer.Argument(..., help="The helper lemma's name, as `candidates` lists it."),
    yes: bool = typer.Option(False, "--yes", help="Promote without asking (you read it)."),
    fmt: str = typer.Option("text", "--format", help="text or json"),
    verbose: bool = VERBOSE,
) -> None:
    """Promote a helper lemma into the library after you have read it (a person's step)."""
    from paperlint.learning.library import current_pins, read_candidates

    _format(fmt)
    found = {c.name: c for c in read_candidates(workspace)}
    candidate = found.get(name)
    if candidate is None:
        raise InputError(
            f"{name} is no helper lemma of a verified result in {workspace}",
            hint=f"see `paperlint library candidates {workspace}`",
        )
    if fmt == "text":
        typer.echo(candidate.text, nl=False)
    if not yes:
        if not sys.stdin.isatty():
            raise InputError(
                "promotion needs a person's confirmation",
                hint="read the lemma above, then run again with --yes",
            )
        if not typer.confirm("Promote this lemma into your library?", default=False):
            typer.echo("not promoted")
            raise typer.Exit(1)
    entry = _library().promote(candidate, pins=current_pins(), now=dt.datetime.now(dt.UTC))
    if fmt == "json":
        typer.echo(json.dumps({"promoted": entry.model_dump(mode="json")}, indent=2))
        return
    typer.echo(f"promoted as {entry.name} ({entry.module}); unbuilt until the library is built")


@library_app.command("remove")
def remove(
    name: str = typer.Argument(..., help="A library lemma."),
    fmt: str = typer.Option("text", "--format", help="text or json"),
    verbose: bool = VERBOSE,
) -> None:
    """Take a lemma out of the library."""
    _format(fmt)
    entry = _library().remove(name)
    if fmt == "json":
        typer.echo(json.dumps({"removed": entry.name}))
        return
    typer.echo(f"removed {entry.name}")

"""`paperlint mcp`: serve the CLI's verbs as MCP tools over stdio (extra `paperlint[mcp]`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from paperlint.cli.options import VERBOSE
from paperlint.cli.root import app
from paperlint.errors import InputError

if TYPE_CHECKING:
    from paperlint.mcp.tools import Verb


@app.command("mcp")
def mcp(verbose: bool = VERBOSE) -> None:
    """Serve paperlint's commands as MCP tools over stdio (needs `paperlint[mcp]`)."""
    try:
        from paperlint.mcp.server import main
    except ImportError as exc:
        raise InputError(
            f"the MCP server needs the MCP SDK ({exc.name} is missing)",
            hint="pip install 'paperlint[mcp]'",
        ) from None
    main(verbs())
    raise typer.Exit(0)


def verbs() -> dict[str, Verb]:
    """Every command of this CLI as an MCP tool (`paperlint.mcp.tools.registry`)."""
    import typer.main

    from paperlint.cli.root import _register_commands
    from paperlint.mcp.tools import registry

    _register_commands()
    return registry(typer.main.get_command(app))

"""`paperlint mcp`: serve the CLI's verbs as MCP tools over stdio (extra `paperlint[mcp]`)."""

from __future__ import annotations

import typer

from paperlint.cli.options import VERBOSE
from paperlint.cli.root import app
from paperlint.errors import InputError


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
    main()
    raise typer.Exit(0)

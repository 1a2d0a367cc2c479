"""The command line: typer commands, thin, behind one error boundary.

Importing this package imports no typer: `main` (the console script, `paperlint.cli.fast`)
decides whether a command needs it, and `app` (the typer app, `paperlint.cli.root`) is
imported when first asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from paperlint.cli.fast import main

if TYPE_CHECKING:
    from paperlint.cli.root import app

__all__ = ["app", "main"]


def __getattr__(name: str) -> Any:
    if name == "app":
        from paperlint.cli.root import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

"""The command line: typer commands, thin, behind one error boundary."""

from paperlint.cli.root import app, main

__all__ = ["app", "main"]

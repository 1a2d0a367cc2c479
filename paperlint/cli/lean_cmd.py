"""CLI commands: lean_cmd (being built; see the issue tracker)."""

"""CLI commands: setup_cmd (being built; see the issue tracker)."""

"""CLI commands: check_cmd (being built; see the issue tracker)."""

"""CLI commands: validate_cmd (being built; see the issue tracker)."""

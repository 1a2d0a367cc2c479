"""CLI commands: revise_cmd (being built; see the issue tracker)."""

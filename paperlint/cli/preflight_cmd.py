"""CLI commands: preflight_cmd (being built; see the issue tracker)."""

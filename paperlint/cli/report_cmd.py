"""CLI commands: report_cmd (being built; see the issue tracker)."""

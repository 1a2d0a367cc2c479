"""Reports: rendered from records only; never calls a model or Lean."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path


def write_report(workspace: Path, *, templates: Mapping[str, str] | None = None) -> list[Path]:
    """Render every output of `workspace` into `workspace/report/`; return the paths written.
    `templates`: today's prompt template hashes, for the drift notes (`load.load_workspace`).

    Imported lazily so that importing `paperlint.reports` (the engine does, at the end of a
    check) does not load jinja2 until a report is actually written.
    """
    from paperlint.reports.write import write_all

    return write_all(workspace, templates=templates)


__all__ = ["write_report"]

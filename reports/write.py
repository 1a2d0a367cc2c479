"""Render a workspace's outputs and write them atomically (docs/design.md §3: `report/`)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Final

from paperlint.domain import ReportFormat
from paperlint.records import write_text_atomic
from paperlint.reports.blueprint_tex import render_blueprint
from paperlint.reports.graph import render_svg
from paperlint.reports.html import render_html
from paperlint.reports.jsonout import render_json
from paperlint.reports.load import ReportData, StaleMarks, load_workspace
from paperlint.reports.markdown import render_markdown
from paperlint.reports.sarif import render_sarif
from paperlint.reports.worksheet import render_files_to_check, render_worksheet


def _dump(render: Callable[[ReportData], dict[str, Any]]) -> Callable[[ReportData], str]:
    return lambda data: json.dumps(render(data), indent=2, ensure_ascii=False) + "\n"


# --format name (paperlint.domain.ReportFormat) -> (file name, renderer)
FORMATS: Final[dict[str, tuple[str, Callable[[ReportData], str]]]] = {
    ReportFormat.MD: ("report.md", render_markdown),
    ReportFormat.HTML: ("report.html", render_html),
    ReportFormat.JSON: ("report.json", _dump(render_json)),
    ReportFormat.SARIF: ("report.sarif", _dump(render_sarif)),
    ReportFormat.BLUEPRINT: ("blueprint.tex", render_blueprint),
}
# Written only with the full report (no --format of their own).
EXTRA: Final[dict[str, Callable[[ReportData], str]]] = {
    "worksheet.md": render_worksheet,
    "files-to-check.md": render_files_to_check,
}


def publish(path: Path, text: str) -> None:
    """Write a report file atomically, readable as any file the user makes (umask applies).

    The atomic writer's temp file is private (0600); a report is meant to be shared or served.
    """
    write_text_atomic(path, text)
    umask = os.umask(0)
    os.umask(umask)
    path.chmod(0o666 & ~umask)


def render(data: ReportData, fmt: str) -> str:
    return FORMATS[fmt][1](data)


def write_all(
    workspace: Path,
    out_dir: Path | None = None,
    *,
    templates: Mapping[str, str] | None = None,
    stale: StaleMarks | None = None,
) -> list[Path]:
    """Write every output into `out_dir` (default `workspace/report/`); return the paths.
    `templates`: today's prompt template hashes, for the drift notes; `stale`: the marks of a
    paper changed since the check (`load_workspace`)."""
    data = load_workspace(workspace, templates=templates, stale=stale)
    folder = out_dir or workspace / "report"
    texts: dict[str, str] = {"graph.svg": render_svg(data)}
    texts.update({name: renderer(data) for name, renderer in FORMATS.values()})
    texts.update({name: renderer(data) for name, renderer in EXTRA.items()})
    paths = []
    for name, text in texts.items():
        publish(folder / name, text)
        paths.append(folder / name)
    return paths

"""Write a workspace's leanblueprint project and build its web blueprint with plasTeX.

plasTeX and leanblueprint are the optional extra `paperlint[blueprint]`; without them the
project is still written (any leanblueprint install builds it) and `build_web` says what to
install. plasTeX runs in a child process in the project's `src/` folder, as `leanblueprint
web` runs it, with images disabled (plastex.cfg) and a time limit; everything it reads from
the paper went through `texsafe` first. Then every page is made to work offline from
`file://` (`blueprint_offline`: MathML, the graph laid out at build time).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Final

from paperlint.errors import PaperlintError
from paperlint.reports.blueprint_offline import LABELS_FILE, make_offline
from paperlint.reports.blueprint_web import render_project
from paperlint.reports.load import ReportData
from paperlint.reports.write import publish

EXTRA_HINT: Final = "install the optional extra: pip install 'paperlint[blueprint]'"
TIMEOUT_S: Final = 600.0
_RUN_PLASTEX: Final = "import sys; from plasTeX.client import plastex; sys.exit(plastex())"


class BlueprintBuildError(PaperlintError):
    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint


def plastex_available() -> bool:
    """Whether the `paperlint[blueprint]` extra (plasTeX with leanblueprint's plugins) is here."""
    return all(
        importlib.util.find_spec(name) is not None
        for name in ("plasTeX", "leanblueprint", "plastexdepgraph")
    )


def write_project(data: ReportData, folder: Path) -> list[Path]:
    """Write `folder/src/` (leanblueprint's layout); return the files written."""
    paths = []
    for name, text in render_project(data).items():
        path = folder / "src" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        publish(path, text)
        paths.append(path)
    return paths


def build_web(folder: Path, *, timeout_s: float = TIMEOUT_S) -> Path:
    """Build `folder/src/` into `folder/web/` with plasTeX; return `web/index.html`.

    plasTeX's output goes to `folder/plastex.log`. Raises `BlueprintBuildError` when the extra
    is missing, plasTeX fails, or it runs past `timeout_s`.
    """
    if not plastex_available():
        raise BlueprintBuildError(
            f"{folder / 'src'} was written, but plasTeX is not installed to build it",
            hint=EXTRA_HINT,
        )
    src, log = folder / "src", folder / "plastex.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEX")}  # no TEXINPUTS
    with log.open("w", encoding="utf-8") as out:
        try:
            proc = subprocess.run(
                [sys.executable, "-c", _RUN_PLASTEX, "-c", "plastex.cfg", "web.tex"],
                cwd=src,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                timeout=timeout_s,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise BlueprintBuildError(
                f"plasTeX ran past {timeout_s:.0f} s on {src}", hint=f"see {log}"
            ) from None
    index = folder / "web" / "index.html"
    if proc.returncode != 0 or not index.is_file():
        raise BlueprintBuildError(
            f"plasTeX failed on {src / 'web.tex'} (exit {proc.returncode})", hint=f"see {log}"
        )
    labels_file = src / LABELS_FILE
    labels = json.loads(labels_file.read_text(encoding="utf-8")) if labels_file.is_file() else {}
    make_offline(folder / "web", labels)
    return index

"""The mechanical audit of Lean files, as `paperlint lean scan` and `paperlint replay` run it.

It combines the hygiene scan (over each file and the project files it imports) with the
unused-hypothesis lint, and needs no Lean. The `LeanFinding` model lives in `findings.py`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from paperlint.lean.answer import skeleton_answer_findings
from paperlint.lean.findings import LeanFinding, sort_findings
from paperlint.lean.hygiene import (
    DEFAULT_POLICY,
    HygienePolicy,
    imports,
    is_library,
    resolve_import,
    scan_file,
)
from paperlint.lean.skeleton import check_skeleton
from paperlint.lean.unused import unused_hypotheses

_PROJECT_MARKERS = ("lakefile.lean", "lakefile.toml", "lean-toolchain")


def find_project_root(path: Path, *, policy: HygienePolicy = DEFAULT_POLICY) -> Path:
    """Where `path`'s local imports live.

    The nearest folder above `path` holding a Lake project; without one, the nearest folder
    from which the file's first local import resolves (`Paper/Main.lean` importing
    `Paper.Hidden` → the folder above `Paper/`); else the file's own folder.
    """
    start = path.parent
    folders = (start, *start.resolve().parents)
    for folder in folders:
        if any((folder / marker).is_file() for marker in _PROJECT_MARKERS):
            return folder
    text = path.read_text(encoding="utf-8", errors="replace")
    local = [ref.module for ref in imports(text) if not is_library(ref.module, policy)]
    for module in local[:1]:
        for folder in folders[:4]:  # a module path is rarely deeper; never guess far up
            if resolve_import(module, project_root=folder) is not None:
                return folder
    return start


def audit_files(
    paths: Sequence[Path],
    *,
    project_root: Path | None = None,
    policy: HygienePolicy = DEFAULT_POLICY,
    hints: bool = False,
    skeleton: Path | None = None,
) -> list[LeanFinding]:
    """Hygiene and unused-hypothesis findings for `paths`, sorted and without duplicates.

    `hints` adds the unused-hypothesis advisories that automation may explain; they are noisy
    on ordinary Mathlib proofs (`by linarith` uses hypotheses without naming them).
    `skeleton` is the gated file: each path must then only fill its `sorry` holes.
    """
    findings: list[LeanFinding] = []
    for path in paths:
        root = project_root if project_root is not None else find_project_root(path, policy=policy)
        findings.extend(scan_file(path, project_root=root, policy=policy))
        text = path.read_text(encoding="utf-8", errors="replace")
        lint = unused_hypotheses(text, file=str(path))
        findings.extend(f for f in lint if f.blocking or hints)
        if skeleton is not None:
            gated = skeleton.read_text(encoding="utf-8", errors="replace")
            findings.extend(check_skeleton(gated, text, file=str(path), include_hygiene=False))
            findings.extend(skeleton_answer_findings(gated, text, file=str(path)))
    return sort_findings(findings)

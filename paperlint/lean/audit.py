"""The mechanical audit of Lean files, as `paperlint lean scan` and `paperlint replay` run it.

It combines the hygiene scan (over each file and the project files it imports) with the
unused-hypothesis lint, and needs no Lean. The `Finding` model lives in `findings.py`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from paperlint.lean.findings import Finding, sort_findings
from paperlint.lean.hygiene import DEFAULT_POLICY, HygienePolicy, scan_file
from paperlint.lean.unused import unused_hypotheses

_PROJECT_MARKERS = ("lakefile.lean", "lakefile.toml", "lean-toolchain")


def find_project_root(path: Path) -> Path:
    """The nearest folder above `path` holding a Lake project, else the file's own folder."""
    start = path.parent
    for folder in (start, *start.resolve().parents):
        if any((folder / marker).is_file() for marker in _PROJECT_MARKERS):
            return folder
    return start


def audit_files(
    paths: Sequence[Path],
    *,
    project_root: Path | None = None,
    policy: HygienePolicy = DEFAULT_POLICY,
    hints: bool = False,
) -> list[Finding]:
    """Hygiene and unused-hypothesis findings for `paths`, sorted and without duplicates.

    `hints` adds the unused-hypothesis advisories that automation may explain; they are noisy
    on ordinary Mathlib proofs (`by linarith` uses hypotheses without naming them).
    """
    findings: list[Finding] = []
    for path in paths:
        root = project_root if project_root is not None else find_project_root(path)
        findings.extend(scan_file(path, project_root=root, policy=policy))
        text = path.read_text(encoding="utf-8", errors="replace")
        lint = unused_hypotheses(text, file=str(path))
        findings.extend(f for f in lint if f.blocking or hints)
    return sort_findings(findings)

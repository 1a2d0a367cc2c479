"""The engine's narrow view of the mechanical audit and the Lean feedback formatter."""

from __future__ import annotations

from pathlib import Path

from paperlint.lean.compose import fingerprint, fingerprints
from paperlint.lean.verifier import LeanCheck

__all__ = [
    "answer_refusals",
    "feedback",
    "fingerprint",
    "fingerprints",
    "main_fingerprint",
    "refusals",
    "scan",
]


def refusals(text: str, *, allow_sorry: bool) -> list[str]:
    """Rules a model-written text breaks before it may reach Lean (rendered findings)."""
    from paperlint.lean.hygiene import refusal_findings

    found = refusal_findings(text)
    return [
        f.render()
        for f in found
        if f.blocking and not (allow_sorry and f.rule in {"sorry", "admit"})
    ]


def answer_refusals(text: str) -> list[str]:
    """The prover-answer allowlist (paperlint.lean.answer), rendered: a counterexample too."""
    from paperlint.lean.answer import answer_findings

    return [f.render() for f in answer_findings(text)]


def main_fingerprint(text: str, name: str) -> str | None:
    """Fingerprint of the declaration named `name`, wherever it stands in `text`."""
    from paperlint.lean.answer import statement_fingerprint

    return statement_fingerprint(text, name)


def scan(path: Path, project_root: Path) -> list[str]:
    from paperlint.lean.hygiene import scan_file

    return [f.render() for f in scan_file(path, project_root=project_root) if f.blocking]


def feedback(candidate: str, check: LeanCheck) -> str:
    """The candidate with Lean's errors and goals inlined as comments (prover feedback)."""
    from paperlint.lean.feedback import render_feedback

    return render_feedback(candidate, check)

"""The engine's narrow view of the mechanical audit and the Lean feedback formatter."""

from __future__ import annotations

from pathlib import Path

from paperlint.lean.compose import fingerprint, fingerprints
from paperlint.lean.verifier import FinalCheck, LeanCheck

__all__ = [
    "answer_refusals",
    "elaboration_changes",
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


def elaboration_changes(
    root: Path, gate_record: str | None, final: FinalCheck, name: str
) -> list[str]:
    """What differs between the gate's elaboration of `name` and the final file's ([] when
    they agree, or when the gate recorded none: then only the fingerprint compares)."""
    import json

    from paperlint.lean.elaborated import changes, from_record

    if gate_record is None:
        return []
    try:
        data = json.loads((root / gate_record).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    raw = data.get("elaboration") if isinstance(data, dict) else None
    if raw is None:
        return []
    gated = from_record(raw)
    if gated is None:
        return ["the gate's recorded elaboration is unreadable or was edited"]
    return changes(gated, final.statements.get(name))


def scan(path: Path, project_root: Path) -> list[str]:
    from paperlint.lean.hygiene import scan_file

    return [f.render() for f in scan_file(path, project_root=project_root) if f.blocking]


def feedback(candidate: str, check: LeanCheck) -> str:
    """The candidate with Lean's errors and goals inlined as comments (prover feedback)."""
    from paperlint.lean.feedback import render_feedback

    return render_feedback(candidate, check)

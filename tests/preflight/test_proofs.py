"""Proof attachment: the next environment, references, headings, and bare paragraphs."""

from __future__ import annotations

from pathlib import Path

from paperlint.preflight.inventory import build_inventory

HEAD = "\\documentclass{article}\n\\usepackage{amsthm}\n\\newtheorem{lemma}{Lemma}\n"


def _build(tmp_path: Path, body: str):  # type: ignore[no-untyped-def]
    path = tmp_path / "paper.tex"
    path.write_text(HEAD + "\\begin{document}\n" + body + "\n\\end{document}\n", encoding="utf-8")
    return build_inventory(path)


def test_proof_of_paragraph_anywhere(tmp_path: Path) -> None:
    inventory = _build(
        tmp_path,
        "\\begin{lemma}\\label{lem:a}\nA.\n\\end{lemma}\nText.\n\n\\section{Later}\n"
        "\\noindent\\textbf{Proof of Lemma 1.} It holds by magic. \\qed\n\nNext.",
    )
    proof = inventory.results[0].proof
    assert proof is not None and proof.attached_by == "paragraph"
    assert proof.text == "It holds by magic."
    assert any(d.code == "proof-paragraph" for d in inventory.diagnostics)


def test_heading_before_proof_environment(tmp_path: Path) -> None:
    inventory = _build(
        tmp_path,
        "\\begin{lemma}\\label{lem:a}\nA.\n\\end{lemma}\n\\begin{lemma}\\label{lem:b}\nB.\n"
        "\\end{lemma}\n\\section{Proofs}\n\\subsection{Proof of Lemma~\\ref{lem:a}}\n"
        "\\begin{proof}\nFirst.\n\\end{proof}",
    )
    first, second = inventory.results
    assert first.proof is not None and first.proof.text == "First."
    assert second.proof is None


def test_result_nested_in_a_proof_has_the_proved_result_as_parent(tmp_path: Path) -> None:
    inventory = _build(
        tmp_path,
        "\\begin{lemma}\\label{lem:a}\nA.\n\\end{lemma}\n\\begin{proof}\n"
        "\\begin{lemma}\\label{lem:inner}\nInner.\n\\end{lemma}\nDone.\n\\end{proof}",
    )
    outer, inner = inventory.results
    assert inner.parent == outer.id == "lem:a"
    assert outer.proof is not None and "Done." in outer.proof.text


def test_blueprint_proves_names_the_result(tmp_path: Path) -> None:
    inventory = _build(
        tmp_path,
        "\\begin{lemma}\\label{lem:a}\nA.\n\\end{lemma}\n\\begin{lemma}\\label{lem:b}\nB.\n"
        "\\end{lemma}\n\\begin{proof}\n\\proves{lem:a}\nFirst.\n\\end{proof}",
    )
    first, second = inventory.results
    assert first.proof is not None and first.proof.attached_by == "proves"
    assert second.proof is None
